package lsp

// The twenty-first red team's attacks on awaitMoved that HELD (the open
// ones, if any, are in redteam21_open_attacks_test.go, build tag
// open_attacks), kept as regression tests.

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
)

// r21applyThenRefuse is a client (not VS Code, no eukhe plugin: its
// refusal proves nothing) that applies an edit without checking its
// version, tells the change after delay, then lets user act on the
// buffer (told at once), and answers applied: false.
func r21applyThenRefuse(t *testing.T, delay time.Duration, user func(e *fakeEditor)) (*fakeEditor, *int) {
	var e *fakeEditor
	calls := 0
	handle := func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		if req.Method() != "workspace/applyEdit" {
			return nil, nil, false
		}
		var p lsproto.ApplyWorkspaceEditParams
		if err := (codec{}).Unmarshal(req.Params(), &p); err != nil {
			return nil, err, true
		}
		e.mu.Lock()
		e.applyCalls++
		calls++
		n := calls
		var notes []func()
		for _, dc := range p.Edit.DocumentChanges {
			if td, ok := dc.(*lsproto.TextDocumentEdit); ok {
				path, _ := pathOf(td.TextDocument.URI)
				notes = append(notes, e.applyTextEdits(e.bufs[path], td.Edits)) // no version checked
			}
		}
		e.mu.Unlock()
		tell := func() {
			for _, f := range notes {
				f()
			}
			if n == 1 && user != nil {
				user(e)
			}
		}
		if delay == 0 {
			tell()
		} else {
			go func() { time.Sleep(delay); tell() }()
		}
		return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("a later change failed")}, nil, true
	}
	e = newEditor(t, editorOpts{handle: handle})
	return e, &calls
}

// Attack (target 6, awaitMoved's wait for the edit's own change): a
// client whose refusal proves nothing applies the edit (NEW after line 1),
// tells it (at once, or 300 ms later), and the user at once types on
// the line the edit made ("x" before NEW) — the buffer never holds the
// edit as sent, so holdsEdit stays false to the end of the wait, and the
// document has moved: stale, rebased, sent again.
// Held: the edit is in the buffer once (the rebase meets the user's
// change on the edit's own lines and refuses), and the reply does not
// say that nothing of the edit is in the buffer.
func TestRedteam21_AnEditAppliedThenTypedOnIsNotSentAgain(t *testing.T) {
	for _, delay := range []time.Duration{0, 300 * time.Millisecond} {
		e, calls := r21applyThenRefuse(t, delay, func(e *fakeEditor) { e.typeAt("a.txt", 1, 0, "x") })
		tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1>\n+NEW\n"})
		time.Sleep(500 * time.Millisecond)
		b := e.buf("a.txt")
		if n := strings.Count(b, "NEW"); n != 1 || strings.Contains(got.Text, "Nothing of this edit") {
			t.Errorf("delay %v: NEW %d times in the buffer %q after %d sends; reply:\n%s", delay, n, b, *calls, got.Text)
		}
		t.Logf("delay %v: %d sends, buffer %q, reply:\n%s", delay, *calls, b, got.Text)
	}
}
