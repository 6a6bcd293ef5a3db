package lsp

// The twentieth red team's attacks on rebase under typing that HELD (the
// open ones are in redteam20_open_attacks_test.go, build tag
// open_attacks), kept as regression tests.

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// Attack (target 6, a stale edit sent again while the user types): a
// two-file edit to Neovim without the plugin, which checks the version
// of the first document only (apply_text_document_edit: "do not check
// the version after the first edit"), applies the second at its stale
// positions, and answers applied: false (a rename after the text edits
// failed); the user's typing in b.txt, the second document, was told
// before the apply; the edit's own changes are told after Neovim's
// debounce (100 ms, and 400 ms as debounce_text_changes set higher or a
// loaded machine), after the answer.
// Held: each document's insertion is in its buffer once, and the reply
// says Applied (the wait for the first document's change, refusedWait,
// sees a.txt hold the edit: landed, so nothing is sent again).
func TestRedteam20_NeovimSecondDocumentAppliedThenRefusedLandsOnce(t *testing.T) {
	for _, d := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond} {
		var e *fakeEditor
		say := applyThenSay(&e, nil)
		e = newEditor(t, editorOpts{debounce: true, handle: func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
			res, err, ok := say(ctx, req)
			if ok {
				go func() { time.Sleep(d); e.flush("a.txt"); e.flush("b.txt") }()
			}
			return res, err, ok
		}})
		e.put("a.txt", "a one\na two\n")
		e.put("b.txt", "b one\nb two\nb three\n")
		e.open("a.txt")
		e.open("b.txt")
		ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == 1 {
					e.typeAt("b.txt", 2, 0, "t")
					e.flush("b.txt")
				}
			}
		})
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 1>\n+A NEW\n[b.txt#" + tb + "]\n@@ 1>\n+B NEW\n"})
		time.Sleep(d + 300*time.Millisecond)
		e.flush("a.txt")
		e.flush("b.txt")
		a, b := e.buf("a.txt"), e.buf("b.txt")
		if a != "a one\nA NEW\na two\n" || b != "b one\nB NEW\nb two\ntb three\n" || got.IsError || !strings.HasPrefix(got.Text, "Applied") {
			t.Errorf("debounce %v: a.txt %q, b.txt %q, reply:\n%s", d, a, b, got.Text)
		}
	}
}
