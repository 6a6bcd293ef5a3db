package lsp

import "testing"

// A hunk that reaches the end of the text is moved before its last newline
// with the same result, and never ends past the last line.
func TestInsideSameResult(t *testing.T) {
	for _, c := range []struct{ from, to string }{
		{"a\nb\nc\n", "a\nb\nC\n"},    // the last line replaced
		{"a\nb\nc\n", "a\nb\nc\nd\n"}, // a line appended
		{"a\nb\nc\n", "a\n"},          // the last lines removed
		{"a\nb\nc\n", ""},             // everything removed
		{"a\nb\nc\n", "a\nb\nc"},      // the last newline removed
		{"a\nb\nc", "a\nb\nC"},        // no last newline
		{"a\n", "b\n"},
		{"", "a\n"},
		{"a\nb\n", "x\ny\nz\n"},
	} {
		from, to := []byte(c.from), []byte(c.to)
		got := append([]byte(nil), from...)
		hs := hunks(from, to)
		for i := len(hs) - 1; i >= 0; i-- {
			h := hs[i]
			at, end, text := inside(from, h.oldAt, h.oldEnd, to[h.newAt:h.newEnd])
			if len(from) > 0 && from[len(from)-1] == '\n' && end == len(from) && at < end && len(text) > 0 && text[len(text)-1] == '\n' {
				t.Errorf("%q → %q: a hunk still ends past the last line", c.from, c.to)
			}
			got = append(append(append([]byte(nil), got[:at]...), text...), got[end:]...)
		}
		if string(got) != c.to {
			t.Errorf("%q → %q: got %q", c.from, c.to, got)
		}
	}
}
