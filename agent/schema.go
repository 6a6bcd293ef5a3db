package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// IntentParam is the intent parameter every sent schema has first (S7.3).
const IntentParam = "i"

// intentSchema is the schema of the intent parameter when a tool does not
// declare its own.
func intentSchema() Object {
	return Object{
		{Key: "type", Value: "string"},
		{Key: "description", Value: "Intent: a few words on why you make this call (shown to the user). Optional."},
	}
}

// Build is the schema the session sends for a declared input schema
// (S7.3): the intent parameter i optional and first, each declared
// parameter kept in its place, and the annotation "title": "v<N>" — the
// declared version, else the version the schema's title already carries,
// else 1. Building a built schema changes nothing
// (schema_build_idempotent). The declared schema is not modified.
//
// Chosen where the seed is silent: a declared i is moved to the front with
// its own schema and dropped from "required" (i is optional); a title that
// is not v<N> is replaced; "type" must be "object" and is added when
// missing, first.
func Build(declared Object, version int) (Object, error) {
	s := clone(declared).(Object)
	if s == nil {
		s = Object{}
	}
	if t, ok := s.Get("type"); !ok {
		s = append(Object{{Key: "type", Value: "object"}}, s...)
	} else if t != "object" {
		return nil, fmt.Errorf(`an input schema has "type": "object", not %v`, t)
	}
	if version <= 0 {
		version = SchemaVersion(s)
	}
	if version <= 0 {
		version = 1
	}
	title := "v" + strconv.Itoa(version)
	if i := s.Index("title"); i >= 0 {
		s[i].Value = title
	} else {
		at := s.Index("type") + 1
		s = append(s[:at], append(Object{{Key: "title", Value: title}}, s[at:]...)...)
	}
	pi := s.Index("properties")
	if pi < 0 {
		s = append(s, Member{Key: "properties", Value: Object{}})
		pi = len(s) - 1
	}
	props, ok := s[pi].Value.(Object)
	if !ok {
		return nil, fmt.Errorf(`"properties" is %s; it must be an object of parameter schemas`, valueKind(s[pi].Value))
	}
	intent := Member{Key: IntentParam, Value: intentSchema()}
	if j := props.Index(IntentParam); j >= 0 {
		intent = props[j]
		props = append(props[:j:j], props[j+1:]...)
	}
	s[pi].Value = append(Object{intent}, props...)
	if ri := s.Index("required"); ri >= 0 {
		if req, ok := s[ri].Value.([]any); ok {
			kept := []any{}
			for _, r := range req {
				if r != IntentParam {
					kept = append(kept, r)
				}
			}
			s[ri].Value = kept
		}
	}
	return s, nil
}

// SchemaVersion is the version a schema's title carries ("v3" is 3), or 0.
func SchemaVersion(s Object) int {
	t, _ := s.Get("title")
	str, _ := t.(string)
	if !strings.HasPrefix(str, "v") {
		return 0
	}
	n, err := strconv.Atoi(str[1:])
	if err != nil || n < 1 || "v"+strconv.Itoa(n) != str {
		return 0
	}
	return n
}

// Params are a schema's parameter names in order.
func Params(s Object) []string {
	p, _ := s.Get("properties")
	props, _ := p.(Object)
	return props.Keys()
}

// MustObject parses a JSON object literal of this package (a declared
// schema); it panics on a typo, which the tests catch.
func MustObject(text string) Object {
	var o Object
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		panic(fmt.Sprintf("agent: bad schema literal: %v\n%s", err, text))
	}
	return o
}
