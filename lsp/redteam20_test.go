package lsp

// The twentieth red team's attacks on rebase under typing that HELD (the
// open ones are in redteam20_open_attacks_test.go, build tag
// open_attacks), kept as regression tests.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
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

// Held (was open): awaitMoved waits, for a client whose refusal proves nothing, for the edit's own change to the end of RefusedWait, not only for the first change (the user's typing); the row runs at the server's own waits (2 s). A client that tells its change later than RefusedWait is still taken for refused: the wait is the bound.
// Attack (target 6, a stale edit sent again while the user types): a
// client (not VS Code, no eukhe plugin: its refusal proves nothing) that
// applies an edit without checking its version, then answers applied:
// false or an error (a later part failed), and tells the edit's own
// change 700 ms after its answer (a debounce, a loaded machine); the
// user typed on another line (line 4) just before the apply, and that
// change was told at once. The edit inserts NEW after line 1.
// THROUGH (severity low: needs a client that neither checks the
// version, as LSP asks, nor tells its change before its answer; what is
// lost is no byte but the edit's count and the reply's truth): NEW is in
// the buffer twice, and the reply says "NOT applied ... Nothing of this
// edit is on disk": the edit landed twice and was reported not applied.
// Root cause: lsp/rebase.go awaitMoved stops waiting for a refused
// document at its first change (movedOn: the user's typing), and
// holdsEdit, asked then, does not see the edit yet; the document is
// taken for stale, rebased on the buffer without the edit, and sent
// again (apply.go's loop, now bounded by TypingWait): for a client whose
// refusal proves nothing, the wait should go on for the edit's own
// change (refusedWait) even after the buffer moved, or the rebased send
// should not follow an untrusted refusal.
func TestRedteam20_AnEditAppliedThenRefusedAfterTypingElsewhereLandsOnce(t *testing.T) {
	for _, answer := range []error{nil, errors.New("a later change failed")} {
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
			e.mu.Unlock()
			if n == 1 {
				e.typeAt("a.txt", 3, 0, "t") // the user's keystroke, told at once
			}
			e.mu.Lock()
			var notes []func()
			for _, dc := range p.Edit.DocumentChanges {
				if td, ok := dc.(*lsproto.TextDocumentEdit); ok {
					path, _ := pathOf(td.TextDocument.URI)
					notes = append(notes, e.applyTextEdits(e.bufs[path], td.Edits)) // no version checked
				}
			}
			e.mu.Unlock()
			go func() {
				time.Sleep(700 * time.Millisecond)
				for _, f := range notes {
					f()
				}
			}()
			if answer != nil {
				return nil, answer, true
			}
			return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("a later change failed")}, nil, true
		}
		e = newEditor(t, editorOpts{handle: handle}) // the server's own waits (2 s)
		tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\nfour\n")
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1>\n+NEW\n"})
		time.Sleep(1500 * time.Millisecond) // every change told
		b := e.buf("a.txt")
		if n := strings.Count(b, "NEW"); n != 1 || strings.HasPrefix(got.Text, "NOT applied") {
			t.Errorf("answer %v: NEW %d times in the buffer %q after %d sends; reply:\n%s", answer, n, b, calls, got.Text)
		}
	}
}
