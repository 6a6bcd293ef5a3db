package lsp

import (
	"fmt"
	"strings"
	"testing"
)

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
		{"g\nhkqmc\r\n", "g\nREPLACED\n"}, // a CRLF last line replaced by an LF one
		{"a\r\nb\r\n", "a\r\nB\r\n"},      // CRLF kept
		{"a\r\nb\r\n", "a\r\nb\r\nc\r\n"}, // a CRLF line appended
		{"a\r\nb\r\nc\r\n", "a\r\n"},      // the last CRLF lines removed
		{"a\nb\r\n", "a\n"},               // the last CRLF line removed after an LF one
	} {
		from, to := []byte(c.from), []byte(c.to)
		got := append([]byte(nil), from...)
		hs := hunks(from, to)
		for i := len(hs) - 1; i >= 0; i-- {
			h := hs[i]
			at, end, text := inside(from, h.oldAt, h.oldEnd, to[h.newAt:h.newEnd])
			if len(from) > 0 && from[len(from)-1] == '\n' && end == len(from) && at < end && len(text) > 0 && text[len(text)-1] == '\n' &&
				!(strings.HasSuffix(c.from, "\r\n") && !strings.HasSuffix(string(text), "\r\n")) { // an LF cannot stand for a CRLF
				t.Errorf("%q → %q: a hunk still ends past the last line", c.from, c.to)
			}
			if !cuttable(from, at) || !cuttable(from, end) {
				t.Errorf("%q → %q: a range [%d, %d) cuts a CRLF", c.from, c.to, at, end)
			}
			got = append(append(append([]byte(nil), got[:at]...), text...), got[end:]...)
		}
		if string(got) != c.to {
			t.Errorf("%q → %q: got %q", c.from, c.to, got)
		}
	}
}

// An edit whose new last line takes the file's first ending (LF) where the
// old one had CRLF: the range may not end between the CR and the LF (the
// client would keep the CR, and the edit would never be seen to land).
// Found by the store conformance suite (edit_keeps_untouched_bytes).
func TestAnEditOfALastLineEndingInCRLF(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("f.txt", "g\nhkqmc\r\n")
	e.open("f.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "f.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[f.txt#%s]\n@@ 2\n+REPLACED\n", tag)})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to f.txt#") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("f.txt"); b != "g\nREPLACED\n" {
		t.Errorf("buffer = %q", b)
	}
}
