//go:build open_attacks

package lsp

import (
	"strings"
	"testing"
	"time"
)

// OPEN for editors that do not check texts (Helix, Eglot, a plain
// client; the VS Code extension does: TestAReopenedBufferAtTheSameVersion
// DoesNotTakeTheEdit): the user closes a buffer and opens the file again
// between eukhe's check and the editor's apply; the new buffer is at the
// same version (versions start again at each didOpen), so the editor's
// version check passes and the edit, made on the old text, lands on the
// disk's text ("disk one\ndisk two\nTHREE"); eukhe says "not confirmed".
// A take-back of the edit's text edits on the reopened text was built at
// stop 41 and taken out again: the twenty-third red team showed it
// removing the user's own typing of the same change when the editor had
// applied nothing, and breaking a two-file edit's all-or-nothing
// (lsp/redteam23_open_attacks_test.go).
func TestOpenAReopenedBufferAtTheSameVersionDoesNotKeepTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	if b := e.buf("a.txt"); b != "disk one\ndisk two\n" {
		t.Fatalf("the edit landed on the reopened buffer's other text: %q; reply:\n%s", b, got.Text)
	}
	if !got.IsError || !strings.Contains(got.Text, "took it back") || strings.Contains(got.Text, "Applied") {
		t.Fatalf("the reply does not say the edit landed on the reopened text and was taken back:\n%s", got.Text)
	}
}
