package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// seenFile puts v.txt in w's workspace and reads it in w's session, so a
// write over it would be allowed; it gives the file's bytes.
func seenFile(t testing.TB, w *world) string {
	t.Helper()
	const text = "one\ntwo\nthree\n"
	if err := os.WriteFile(filepath.Join(w.dir, "v.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := w.sess.Call(context.Background(), "read", json.RawMessage(`{"path":"v.txt"}`)); err != nil || r.Failed() {
		t.Fatalf("read v.txt: %v %s", err, r.Text())
	}
	return text
}

// callRaw runs one roster tool with these raw arguments; a refusal of the
// arguments' shape counts as a failed call.
func callRaw(t interface{ Helper() }, w *world, tool, raw string) (string, bool) {
	t.Helper()
	r, err := w.sess.Call(context.Background(), tool, json.RawMessage(raw))
	if err != nil {
		return err.Error(), true
	}
	return r.Text(), r.Failed()
}

func TestBadArgumentsChangeNothing(t *testing.T) {
	w := newWorld(t)
	text := seenFile(t, w)
	rows := []struct{ tool, args, want string }{
		{"write", `{"path":"v.txt"}`, `"content" is required`},
		{"write", `{"path":"v.txt","content":null}`, `"content" is required`},
		{"write", `{"content":"x"}`, `"path" is required`},
		{"write", `{"path":"v.txt","content":7}`, `"content" must be a string`},
		{"write", `{"path":"v.txt","content":"x","mode":"0755"}`, `no argument "mode"`},
		{"write", "{\"path\":\"v.txt\",\"content\":\"a\xff\xfeb\"}", "not UTF-8"},
		{"write", `{"path":"v.txt","content":"a\ud800b"}`, "lone surrogate"},
		{"write", `{"path":"v.txt","content":"a\udc00"}`, "lone surrogate"},
		{"edit", `{}`, `"patch" is required`},
		{"edit", `{"patch":null}`, `"patch" is required`},
		{"grep", `{"pattern":"one","context":-1}`, `"context" must be a whole number of at least 0`},
		{"glob", `{"pattern":"*","limit":500}`, `"limit" must be a whole number from 1 to 200`},
		{"read", `{"path":null}`, `"path" is required`},
		{"bash", `{"script":null}`, `bash takes one of`}, {"bash", `{"script":[]}`, `"script" must be a string, not an array`},
	}
	for _, r := range rows {
		got, failed := callRaw(t, w, r.tool, r.args)
		if !failed || !strings.Contains(got, r.want) {
			t.Errorf("%s %s: failed=%v %q; want a refusal with %q", r.tool, r.args, failed, got, r.want)
		}
		if b, _ := os.ReadFile(filepath.Join(w.dir, "v.txt")); string(b) != text {
			t.Fatalf("%s %s changed v.txt to %q", r.tool, r.args, b)
		}
	}
	// A surrogate pair is text, and real U+FFFD is text: both are written.
	for _, c := range []string{`a\ud83d\ude00b`, `a\ufffdb`, "a\uFFFDb", `a\\ud800b`} {
		raw := `{"path":"v.txt","content":"` + c + `"}`
		if got, failed := callRaw(t, w, "write", raw); failed {
			t.Errorf("write %s refused: %s", raw, got)
		}
		callRaw(t, w, "read", `{"path":"v.txt"}`)
	}
}

// TestLaw_tool_args_checked: a call whose arguments do not fit the tool's
// schema (a required one missing or null, a wrong type, an unknown name)
// fails, and changes no byte of the workspace.
func TestLaw_tool_args_checked(t *testing.T) {
	w := newWorld(t)
	text := seenFile(t, w)
	values := []string{`null`, `7`, `-1`, `true`, `"v.txt"`, `"x\n"`, `[]`, `{}`, `"[v.txt]\n@@ 1\n+x"`}
	names := []string{"i", "path", "content", "patch", "raw", "mode", "Path"}
	rapid.Check(t, func(rt *rapid.T) {
		tool := rapid.SampledFrom([]string{"write", "edit"}).Draw(rt, "tool")
		args := map[string]json.RawMessage{}
		for _, n := range names {
			if rapid.Bool().Draw(rt, "has "+n) {
				args[n] = json.RawMessage(rapid.SampledFrom(values).Draw(rt, n))
			}
		}
		raw, _ := json.Marshal(args)
		fits := true
		params := map[string][]string{"write": {"i", "path", "content"}, "edit": {"i", "patch"}}[tool]
		required := map[string][]string{"write": {"path", "content"}, "edit": {"patch"}}[tool]
		for n, v := range args {
			// an optional argument sent as null is left out (argcheck.go)
			optionalNull := string(v) == "null" && !contains(required, n)
			if !contains(params, n) || v[0] != '"' && !optionalNull {
				fits = false
			}
		}
		for _, n := range required {
			if v, ok := args[n]; !ok || string(v) == "null" {
				fits = false
			}
		}
		got, failed := callRaw(rt, w, tool, string(raw))
		if !fits && !failed {
			rt.Fatalf("%s %s did not fail: %s", tool, raw, got)
		}
		if !fits {
			if b, _ := os.ReadFile(filepath.Join(w.dir, "v.txt")); string(b) != text {
				rt.Fatalf("%s %s changed v.txt to %q", tool, raw, b)
			}
		}
		if fits && !failed {
			// it landed: put the seen file back for the next draw
			os.WriteFile(filepath.Join(w.dir, "v.txt"), []byte(text), 0o644)
			callRaw(rt, w, "read", `{"path":"v.txt"}`)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzToolArgs: no call of a document tool whose arguments are refused
// changes a byte, and none panics.
func FuzzToolArgs(f *testing.F) {
	for _, s := range []string{`{"path":"v.txt"}`, `{"path":"v.txt","content":null}`, `{"patch":7}`,
		"{\"path\":\"v.txt\",\"content\":\"\xff\"}", `{"path":"v.txt","content":"\ud800"}`, `{"pattern":"o","context":-3}`,
		`{"path":"v.txt","content":"x","extra":1}`, `[]`, `null`, `{"path":{"a":1}}`} {
		f.Add("write", s)
		f.Add("edit", s)
		f.Add("grep", s)
	}
	f.Fuzz(func(t *testing.T, tool, raw string) {
		if !contains([]string{"read", "write", "edit", "grep", "glob"}, tool) {
			return
		}
		w := newWorld(t)
		text := seenFile(t, w)
		if _, failed := callRaw(t, w, tool, raw); failed {
			if b, _ := os.ReadFile(filepath.Join(w.dir, "v.txt")); string(b) != text {
				t.Fatalf("refused %s %s changed v.txt to %q", tool, raw, b)
			}
		}
	})
}

// TestLaw_a_plain_parameter_is_checked_as_its_schema_says: a parameter
// whose schema says only "string" or "boolean" is checked by its value's
// first byte, not decoded and validated: for every tool of the roster and
// any arguments, the check says exactly what the full validation says.
func TestLaw_a_plain_parameter_is_checked_as_its_schema_says(t *testing.T) {
	w := newWorld(t)
	values := []string{`null`, `7`, `-1`, `1.5`, `true`, `false`, `"v.txt"`, `"x\n"`, `""`, `[]`, `["a"]`, `{}`, `{"a":1}`, "\"\xff\"", `"\ud800"`}
	tools := w.sess.roster.Tools()
	rapid.Check(t, func(rt *rapid.T) {
		tool := rapid.SampledFrom(tools).Draw(rt, "tool")
		args := map[string]json.RawMessage{}
		for _, n := range tool.args.params {
			if rapid.Bool().Draw(rt, "has "+n) {
				args[n] = json.RawMessage(rapid.SampledFrom(values).Draw(rt, n))
			}
		}
		raw, _ := json.Marshal(args)
		full := *tool.args
		full.plain = nil
		got, want := tool.args.check(tool.Name, raw), full.check(tool.Name, raw)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("%s %s: the plain check says %v, the validation %v", tool.Name, raw, got, want)
		}
	})
}
