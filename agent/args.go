package agent

import (
	"encoding/json"

	"github.com/eukhe/eukhe/docs"
)

// DecodeArgs reads a call's arguments into v strictly, as docs.DecodeArgs
// does (the one strict decoder): a JSON object whose keys are the tool's
// parameters, each of its declared type. The error says which argument
// and what was expected, and which parameters the tool takes. No
// arguments (absent or null) are an empty object.
func DecodeArgs(tool string, params []string, raw json.RawMessage, v any) error {
	return docs.DecodeArgs(tool, params, raw, v)
}

// jsonKind names the kind of a JSON text by its first byte.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}
