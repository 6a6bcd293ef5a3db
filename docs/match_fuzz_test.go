package docs

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// FuzzLineMatcher: the prefiltered matcher finds exactly the lines that the
// plain regexp matches one by one, on read's line model, and never panics.
func FuzzLineMatcher(f *testing.F) {
	for _, seed := range []struct {
		pattern, text string
		literal, fold bool
	}{
		{"ErrUnexpectedEOF", "a\nio.ErrUnexpectedEOF\r\nb", false, false},
		{`\w+Error\(`, "func parseError(s)\nx", false, false},
		{"[A-Z]+_RESUME", "FOO_RESUME\r\nbar_RESUME\n", false, false},
		{"errunexpectedeof", "ERRUNEXPECTEDEOF\nErrUnexpectedEof", false, true},
		{"a.b", "a.b\naxb\n", true, false},
		{"^$", "\n\r\n\uFEFF\n", false, false},
		{"straße", "STRASSE\nStraße\n", false, true},
		{"x$", "x\r\nx\rx\n", false, false},
		{"(a|b)c", "\uFEFFac\nbc\ncc", false, false},
	} {
		f.Add(seed.pattern, seed.text, seed.literal, seed.fold)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, literal, fold bool) {
		m, err := NewLineMatcher(pattern, literal, fold)
		if err != nil {
			return
		}
		expr := pattern
		if literal {
			expr = regexp.QuoteMeta(pattern)
		}
		if fold {
			expr = "(?i)" + expr
		}
		re := regexp.MustCompile(expr)
		src := []byte(text)
		p := Scan(src)
		var want []string
		for n := 1; n <= len(p.Lines); n++ {
			if re.Match(p.Text(n)) {
				want = append(want, fmt.Sprint(n))
			}
		}
		var got []string
		m.Each(src, func(line int, text []byte) bool {
			if string(text) != string(p.Text(line)) {
				t.Fatalf("line %d: matcher gave text %q, read's line is %q", line, text, p.Text(line))
			}
			got = append(got, fmt.Sprint(line))
			return true
		})
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("pattern %q (literal %v, fold %v) on %q: matcher lines %v, per-line regexp %v", pattern, literal, fold, text, got, want)
		}
	})
}
