package agent

// The twenty-first red team's attacks on the agent package that HELD
// (the open ones are in redteam21_open_attacks_test.go, build tag
// open_attacks), kept as regression tests.

import (
	"encoding/json"
	"strings"
	"testing"
)

// Attack (target 2, argcheck's plain parameters and one decode): for
// every tool of the default roster and each of its parameters, arguments
// that might pass the first-byte check (plain: a schema of only a type)
// or the one decode by name (argsByName) where the full schema
// validation refuses them: duplicate keys (the first of the wrong kind,
// or the last), keys in another case (encoding/json folds case into a
// struct, and ſ is an s to it), \u escapes in a key, invalid UTF-8 and
// lone surrogates in a value, \u0000, a number, an object, an array or
// null where a string or boolean is wanted, "true" as a string, trailing
// garbage, a BOM, 10,001 levels of nesting, a value that is a string
// holding JSON.
// Held: each call check passes is one the full validation (every
// parameter decoded and validated against its schema) passes too; the
// map's keys are exact (a key in another case, escaped or folded, is no
// parameter), the last duplicate is what both read.
func TestRedteam21_PlainCheckPassesOnlyWhatTheFullSchemaPasses(t *testing.T) {
	r, err := OpenRoster()
	if err != nil {
		t.Fatal(err)
	}
	values := []string{`"x"`, `true`, `false`, `1`, `-0`, `1e400`, `{}`, `[]`, `["x"]`, `null`, `"true"`,
		`"\u0000"`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", "\"a\xc3\"", `{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
		`"{\"path\":1}"`}
	n, passed := 0, 0
	for _, tool := range r.Tools() {
		a := tool.args
		for _, p := range a.params {
			up := strings.ToUpper(p[:1]) + p[1:]
			keys := []string{`"` + p + `"`, `"` + up + `"`, `"` + strings.ToUpper(p) + `"`, `"\u00` + hex2(p[0]) + p[1:] + `"`,
				`"` + strings.ReplaceAll(p, "s", "ſ") + `"`, `"` + p + ` "`, `"` + p + `\u0000"`}
			for _, k := range keys {
				for _, v := range values {
					for _, raw := range []string{
						`{` + k + `:` + v + `}`,
						`{` + k + `:` + v + `,"` + p + `":"x"}`,
						`{"` + p + `":"x",` + k + `:` + v + `}`,
						`{` + k + `:` + v + `} x`,
						"\ufeff{" + k + `:` + v + `}`,
						`{` + k + `:` + v + `}{}`,
					} {
						n++
						if a.check(tool.Name, json.RawMessage(raw)) != nil {
							continue
						}
						passed++
						if err := r21fullCheck(tool.Name, a, json.RawMessage(raw)); err != nil {
							t.Errorf("%s %.80s: the check passes it, the full schema says %v", tool.Name, raw, err)
						}
					}
				}
			}
		}
	}
	if passed == 0 {
		t.Fatalf("none of %d calls passed the check: the row proves nothing", n)
	}
}

// hex2 is b in two hex digits.
func hex2(b byte) string {
	const d = "0123456789abcdef"
	return string([]byte{d[b>>4], d[b&15]})
}

// r21fullCheck is the check as it was before plain parameters: every
// parameter decoded and validated against its resolved schema.
func r21fullCheck(tool string, a *argSchema, raw json.RawMessage) error {
	args, err := argsByName(tool, a.params, raw)
	if err != nil {
		return err
	}
	for name, v := range args {
		if string(v) == "null" {
			continue
		}
		if bad := invalidUTF8(v); bad != "" {
			return &ArgsError{Msg: name + " holds " + bad}
		}
		var inst any
		if err := json.Unmarshal(v, &inst); err != nil {
			return err
		}
		if err := a.props[name].Validate(inst); err != nil {
			return err
		}
	}
	return nil
}
