package gate

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzClassify: the classifier never panics; each step's effects are the
// join of its parts; what the user is shown has no invisible character
// left unescaped.
func FuzzClassify(f *testing.F) {
	for _, c := range corpus {
		f.Add(c.script)
	}
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, script string) {
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			if strings.IndexByte(script, 0) >= 0 || err.(*ScriptError).Line > 0 {
				return
			}
			t.Fatalf("error with no line: %v", err)
		}
		for _, st := range sc.Steps {
			if st.Effects != JoinParts(st.Parts) {
				t.Fatalf("step %q: effects %s, parts %s", st.Text, st.Effects, JoinParts(st.Parts))
			}
			for i, r := range st.Text {
				if r == utf8.RuneError || !(unicode.IsPrint(r) || r == '\n' || r == '\t') {
					if !(r == utf8.RuneError && strings.HasPrefix(st.Text[i:], "\uFFFD")) {
						t.Fatalf("step of %q shown with invisible %U: %q", script, r, st.Text)
					}
				}
			}
		}
	})
}

// FuzzClassifyAttacks seeds the classifier's fuzzing with issue 12's
// attacks and audit rows too.
func FuzzClassifyAttacks(f *testing.F) {
	for _, a := range attacks {
		f.Add(a.script)
	}
	for _, a := range audit {
		f.Add(a.script)
	}
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, script string) {
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			return
		}
		for _, st := range sc.Steps {
			if st.Effects != JoinParts(st.Parts) {
				t.Fatalf("step %q: effects %s, parts %s", st.Text, st.Effects, JoinParts(st.Parts))
			}
		}
	})
}

// FuzzCandidates: the paths a word may name never panic; a word that is
// not an option word is always one of them, and a file: URL's path is
// too.
func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"-uo/tmp/x", "--file=~/x", "FILE://localhost/etc/x", "file:/a%2fb",
		"x=@y;type=z", "f=<p", "n@p", "-", "--", "-@", "file://", "fIlE:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		cs := candidates(w, "/home/u", false)
		if w != "" && (len(cs) == 0 || cs[0] != w) {
			t.Fatalf("%q is not its own first candidate: %q", w, cs)
		}
		for _, c := range candidates(w, "/home/u", true) {
			if c == "" {
				t.Fatalf("%q gives an empty candidate", w)
			}
		}
		if !strings.ContainsAny(w, "%?#") && !strings.Contains(w, "//") {
			url := "file://localhost/" + strings.TrimPrefix(w, "/")
			found := false
			for _, c := range candidates(url, "", false) {
				found = found || c == "/"+strings.TrimPrefix(w, "/")
			}
			if !found {
				t.Fatalf("%s does not name /%s: %q", url, strings.TrimPrefix(w, "/"), candidates(url, "", false))
			}
		}
	})
}

// FuzzShownWordReadsBack: a word with runtime parameters in it (each NUL
// of the input stands for $RANDOM) is shown so that the interpreter's
// parser and expansion read it back as the same word.
func FuzzShownWordReadsBack(f *testing.F) {
	for _, s := range []string{"a\x00b", "\x00x", "'\x00\"", "a b\x00", "~\x00", "$\x00{", "\x00\x00"} {
		f.Add(s)
	}
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || s == "" {
			return
		}
		word := strings.ReplaceAll(s, "\x00", runtimeMarker("RANDOM"))
		shown := Visible(word)
		file, err := parse("echo " + shown)
		if err != nil {
			t.Fatalf("the shown word %q does not parse: %v", shown, err)
		}
		r := (&Shell{Policy: w.policy, Dir: w.root, Env: map[string]string{}}).newRun()
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			t.Fatalf("%q parses as %T", shown, file.Stmts[0].Cmd)
		}
		fields, ok := r.fields(call.Args[1:]...)
		if !ok || len(fields) != 1 || fields[0] != word {
			t.Fatalf("%q is shown as %s, which reads back as %q", word, shown, fields)
		}
	})
}
