//go:build open_attacks && linux

package lsp

import (
	"strings"
	"testing"
	"time"
)

// The twenty-third red team's rows that get through (see redteam23_test.go
// for the held ones). Each test asserts the safe, true outcome, so it
// fails while its row is open. Its rows on a document reopened while its
// edit was on the way hold for VS Code, whose extension checks the texts
// the edit was made on (checksTexts); the one left runs a client without
// that check too.

// OPEN for a client without the text check (the Neovim-like fake, whose
// versions start again at each opening; VS Code with the extension holds):
// a two-file edit where a.txt is closed and opened again before the editor
// applies it must leave nothing of it, and the reply say so. With a.txt
// first, its edit lands on the reopened text and is only "not confirmed".
// (Real Neovim keeps a buffer's changedtick when it is reloaded under the
// same number; a wiped and new buffer starts again.)
func TestRedteam23_AMultiFileEditWithOneReopenedLandsNothing(t *testing.T) {
	for _, o := range []editorOpts{{transactional: true, checksTexts: true, wait: 300 * time.Millisecond}, {wait: 300 * time.Millisecond}} {
		for _, first := range []string{"a.txt", "b.txt"} {
			if o.transactional && first == "a.txt" {
				continue // the open row
			}
			e := newEditor(t, o)
			e.put("a.txt", "disk one\ndisk two\n")
			e.openText("a.txt", "one\ntwo\nthree\n")
			ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
			tb := oneFile(t, e, "b.txt", "b one\nb two\n")
			e.set(func(e *fakeEditor) {
				e.beforeApply = func(call int) {
					if call == 1 {
						e.close("a.txt")
						e.open("a.txt")
					}
				}
			})
			pa := "[a.txt#" + ta + "]\n@@ 3\n+THREE\n"
			pb := "[b.txt#" + tb + "]\n@@ 1\n+B ONE\n"
			patch := pa + pb
			if first == "b.txt" {
				patch = pb + pa
			}
			got := e.tool("edit", map[string]any{"patch": patch})
			ba, bb := e.buf("a.txt"), e.buf("b.txt")
			t.Logf("transactional %v, first %s: a %q b %q; reply:\n%s", o.transactional, first, ba, bb, got.Text)
			if ba != "disk one\ndisk two\n" || bb != "b one\nb two\n" || !got.IsError || strings.Contains(got.Text, "Applied") {
				t.Errorf("transactional %v, first %s: not all-or-nothing: a %q, b %q; reply:\n%s", o.transactional, first, ba, bb, got.Text)
			}
		}
	}
}
