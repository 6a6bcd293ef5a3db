package gate

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
