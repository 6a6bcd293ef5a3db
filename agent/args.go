package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DecodeArgs reads a call's arguments into v strictly: a JSON object whose
// keys are the tool's parameters, each of its declared type. The error
// says what was wrong and which parameters the tool takes. No arguments
// (absent or null) are an empty object.
func DecodeArgs(tool string, params []string, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return fmt.Errorf("%s takes a JSON object of arguments (%s), not %s", tool, strings.Join(params, ", "), jsonKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		for {
			// an embedded docs struct names itself first: ReadArgs.path
			head, rest, ok := strings.Cut(field, ".")
			if !ok || head == "" || head[0] < 'A' || head[0] > 'Z' {
				break
			}
			field = rest
		}
		if field == "" {
			field = "the arguments"
		}
		return fmt.Errorf("%s: %s must be %s, not %s", tool, field, typeName(te.Type.Kind().String()), article(te.Value))
	case errors.As(err, &se):
		return fmt.Errorf("%s: the arguments are not valid JSON (%v at byte %d)", tool, se, se.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return fmt.Errorf("%s has no parameter %s; it takes %s", tool, name, strings.Join(params, ", "))
	}
	return fmt.Errorf("%s: %v", tool, err)
}

func typeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean (true or false)"
	case "int", "int64", "int32", "uint", "uint64":
		return "an integer"
	case "float64":
		return "a number"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return kind
}

func article(jsonType string) string {
	switch jsonType {
	case "object", "array", "":
		return "an " + jsonType
	case "number", "string", "bool":
		return "a " + jsonType
	}
	return jsonType
}

// jsonKind names the kind of a JSON text by its first byte.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
