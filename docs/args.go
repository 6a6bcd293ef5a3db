package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeArgs reads a call's arguments into v (a pointer to a struct)
// strictly: one JSON object whose keys are the tool's parameters, each of
// its declared type, and nothing after it. No arguments (absent, blank or
// null) are an empty object. It is the one strict decoder of tool
// arguments (docs.Call, the agent's tools, eukhe tool); its errors are in
// the caller's terms — which argument, what was expected, what was
// given — never the JSON decoder's ("cannot unmarshal number into Go
// struct field ReadArgs.path"). params are the names the tool takes, for
// the messages; nil takes them from v's json tags.
func DecodeArgs(tool string, params []string, raw []byte, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] == '{' && decodeStrict(raw, v) {
		return nil // the common case: the names are read only for a message
	}
	if params == nil {
		params = ParamNames(v)
	}
	takes := func() string { return strings.Join(quoteAll(params), ", ") }
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: the arguments are not valid JSON: %s; send one JSON object such as {%s: …}", tool, syntaxProblem(raw, se.Offset), firstOr(quoteAll(params), `"name"`, `"i"`))
		}
		return fmt.Errorf("%s: the arguments are not valid JSON; send one JSON object such as {%s: …}", tool, firstOr(quoteAll(params), `"name"`, `"i"`))
	}
	if raw[0] != '{' {
		return fmt.Errorf("%s takes a JSON object of arguments (%s), not %s", tool, takes(), JSONKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if rest := bytes.TrimSpace(raw[dec.InputOffset():]); len(rest) > 0 {
			return fmt.Errorf("%s: the arguments are one JSON object with text after it (at byte %d); send the object alone", tool, dec.InputOffset())
		}
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		for {
			// an embedded struct names itself first: ReadArgs.path
			head, rest, ok := strings.Cut(field, ".")
			if !ok || head == "" || head[0] < 'A' || head[0] > 'Z' {
				break
			}
			field = rest
		}
		if field == "" {
			return fmt.Errorf("%s takes a JSON object of arguments (%s), not %s", tool, takes(), article(te.Value))
		}
		return fmt.Errorf("%s: %q must be %s, not %s", tool, field, typeName(te.Type), article(te.Value))
	case errors.As(err, &se):
		return fmt.Errorf("%s: the arguments are not valid JSON: %s; send one JSON object such as {%s: …}", tool, syntaxProblem(raw, se.Offset), firstOr(quoteAll(params), `"name"`, `"i"`))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: the arguments are not valid JSON: they end before the object does (a missing } or \"); send one JSON object", tool)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return fmt.Errorf("%s has no argument %q; it takes %s", tool, name, takes())
	}
	return fmt.Errorf("%s: the arguments could not be read: %v", tool, err)
}

// decodeStrict decodes the one JSON object raw holds into v, no unknown
// field, nothing after it; false on any failure (DecodeArgs then says
// which, decoding again from the start).
func decodeStrict(raw []byte, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil && len(bytes.TrimSpace(raw[dec.InputOffset():])) == 0
}

// ParamNames are the JSON names of the fields of the struct v points to,
// with embedded structs' fields in place.
func ParamNames(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			names = append(names, ParamNames(reflect.New(f.Type).Interface())...)
		case !f.IsExported():
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// syntaxProblem says where a JSON text goes wrong: the character found
// there, or that the text ends.
func syntaxProblem(raw []byte, offset int64) string {
	at := int(offset) - 1
	if at < 0 || at >= len(raw) {
		return "the text ends before the object does"
	}
	line := 1 + bytes.Count(raw[:at], []byte("\n"))
	col := 1 + len([]rune(string(raw[bytes.LastIndexByte(raw[:at], '\n')+1:at])))
	c := raw[at]
	what := fmt.Sprintf("%q", string(c))
	if c < 0x20 {
		what = fmt.Sprintf("a control character (%U) inside a string; escape it", rune(c))
	}
	return fmt.Sprintf("unexpected %s at line %d, column %d", what, line, col)
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return t.Kind().String()
}

// article names a JSON value kind as UnmarshalTypeError.Value gives it
// ("number", "number -1", "string", "bool", "array", "object"); a number
// with its literal is the literal itself.
func article(value string) string {
	kind, literal, _ := strings.Cut(value, " ")
	if kind == "number" && literal != "" {
		return literal
	}
	switch kind {
	case "object", "array":
		return "an " + kind
	case "number", "string":
		return "a " + kind
	case "bool":
		return "true or false"
	}
	return kind
}

// JSONKind names the kind of a JSON text by its first byte (raw is not
// empty), as an error message says it: "an array", "a string", …
func JSONKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// firstOr is the first of ss that is not skip, else or.
func firstOr(ss []string, or, skip string) string {
	for _, s := range ss {
		if s != skip {
			return s
		}
	}
	return or
}
