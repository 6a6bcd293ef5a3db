package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/eukhe/eukhe/docs"
)

// Arguments are checked against the tool's own schema before its handler
// runs (tool_args_checked): a required argument that is missing or null,
// a value of the wrong type or out of its range, a name the tool does not
// take, and a string that is not valid UTF-8 (JSON's decoder would turn
// its bytes into U+FFFD without a word) are each refused with a message
// naming the argument and what it takes. Nothing runs, so nothing
// changes: a write without "content" no longer empties the file.

// argSchema is a tool's built schema, resolved once when the roster is
// fixed: each parameter's own schema (so a failure names its argument)
// and the required names.
type argSchema struct {
	params   []string
	required []string
	props    map[string]*jsonschema.Resolved
	desc     map[string]string
	kinds    map[string]string // the JSON kind each takes, as docs.JSONKind names it
	// plain are the parameters whose schema says only a type, string or
	// boolean (and words): a value is checked by its first byte, not
	// decoded and validated (most of a small call's check)
	plain map[string]bool
}

// newArgSchema resolves a built schema for checking calls.
func newArgSchema(wire json.RawMessage) (*argSchema, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(wire, &s); err != nil {
		return nil, err
	}
	a := &argSchema{required: s.Required, props: map[string]*jsonschema.Resolved{}, desc: map[string]string{}, kinds: map[string]string{}}
	var order struct {
		Properties Object `json:"properties"`
	}
	if err := json.Unmarshal(wire, &order); err != nil {
		return nil, err
	}
	a.params = order.Properties.Keys()
	var shapes struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(wire, &shapes); err != nil {
		return nil, err
	}
	a.plain = map[string]bool{}
	for name, keys := range shapes.Properties {
		a.plain[name] = onlyAType(keys)
	}
	for name, ps := range s.Properties {
		r, err := ps.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("the schema of %q: %v", name, err)
		}
		a.props[name] = r
		a.desc[name] = describeParam(ps)
		a.kinds[name] = map[string]string{"string": "a string", "boolean": "true or false", "integer": "a number",
			"number": "a number", "object": "an object", "array": "an array"}[ps.Type]
	}
	return a, nil
}

// check refuses arguments that do not fit the schema; nil when they do.
// raw has passed the shape check (a JSON object, or nothing).
func (a *argSchema) check(tool string, raw json.RawMessage) error {
	args, err := argsByName(tool, a.params, raw)
	if err != nil {
		return err
	}
	for _, name := range a.required {
		if v, ok := args[name]; !ok || string(v) == "null" {
			what := "missing"
			if ok {
				what = "null"
			}
			return fmt.Errorf("%s: %q is required (%s), and it is %s; nothing was done. Send it, e.g. {%q: …}", tool, name, a.desc[name], what, name)
		}
	}
	for _, name := range sortedKeys(args) {
		v := args[name]
		if string(v) == "null" {
			continue // an optional argument sent as null is left out
		}
		if bad := invalidUTF8(v); bad != "" {
			return fmt.Errorf("%s: %q holds %s, which JSON cannot carry as text; nothing was done. Send text only; to write bytes that are not UTF-8, use bash (printf with \\x escapes, or base64 -d)", tool, name, bad)
		}
		if plain, ok := a.plain[name]; ok && plain {
			if given := docs.JSONKind(v); given != a.kinds[name] {
				return fmt.Errorf("%s: %q must be %s, not %s", tool, name, a.desc[name], given)
			}
			continue
		}
		var inst any
		if err := json.Unmarshal(v, &inst); err != nil {
			return fmt.Errorf("%s: %q is not a JSON value: %v", tool, name, err)
		}
		if err := a.props[name].Validate(inst); err != nil {
			given := docs.JSONKind(v)
			if a.kinds[name] == given {
				given = shortJSON(v) // the right kind, out of its range
			}
			return fmt.Errorf("%s: %q must be %s, not %s", tool, name, a.desc[name], given)
		}
	}
	return nil
}

// onlyAType reports whether a parameter's schema (its keys) says no more
// than a type, string or boolean, and words for the reader.
func onlyAType(keys map[string]json.RawMessage) bool {
	for k := range keys {
		if k != "type" && k != "description" && k != "title" {
			return false
		}
	}
	t := string(keys["type"])
	return t == `"string"` || t == `"boolean"`
}

// describeParam says what a parameter takes: its type and range.
func describeParam(s *jsonschema.Schema) string {
	kind := map[string]string{"string": "a string", "boolean": "true or false", "integer": "a whole number",
		"number": "a number", "object": "an object", "array": "an array"}[s.Type]
	if kind == "" {
		kind = "a value of its schema"
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		kind += fmt.Sprintf(" from %g to %g", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		kind += fmt.Sprintf(" of at least %g", *s.Minimum)
	case s.Maximum != nil:
		kind += fmt.Sprintf(" of at most %g", *s.Maximum)
	}
	return kind
}

// shortJSON is a JSON value as a message quotes it, cut when long.
func shortJSON(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	if len(s) > 40 {
		s = s[:37] + "…"
	}
	return Shown(s)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// invalidUTF8 says what in a JSON value is not text: raw bytes that are
// not UTF-8, or a \u escape of a lone surrogate (both decode to U+FFFD);
// "" when it is all text.
func invalidUTF8(v json.RawMessage) string {
	if !utf8.Valid(v) {
		for i := 0; i < len(v); {
			r, n := utf8.DecodeRune(v[i:])
			if r == utf8.RuneError && n == 1 {
				return fmt.Sprintf("a byte that is not UTF-8 (0x%02x at byte %d)", v[i], i)
			}
			i += n
		}
	}
	inString := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !inString {
			inString = c == '"'
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(v) {
				return ""
			}
			i++
			if v[i] != 'u' {
				continue
			}
			r, ok := hex4(v, i+1)
			if !ok {
				return ""
			}
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return fmt.Sprintf("a lone surrogate (\\u%04x)", r)
			case r >= 0xD800 && r <= 0xDBFF:
				if i+2 < len(v) && v[i+1] == '\\' && v[i+2] == 'u' {
					if lo, ok := hex4(v, i+3); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 6
						continue
					}
				}
				return fmt.Sprintf("a lone surrogate (\\u%04x)", r)
			}
		}
	}
	return ""
}

// hex4 reads four hex digits at v[at:].
func hex4(v []byte, at int) (rune, bool) {
	if at+4 > len(v) {
		return 0, false
	}
	var r rune
	for _, c := range v[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
