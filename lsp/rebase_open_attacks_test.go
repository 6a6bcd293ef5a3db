//go:build open_attacks

package lsp

import (
	"strings"
	"testing"
	"time"
)

// OPEN: Neovim without the plugin applies the edit and the user, inside
// Neovim's debounce, takes it back (u) and types on another line: the one
// didChange tells a later version that holds the old text with typing
// elsewhere, which is exactly what a skipped stale edit looks like
// (landing.go's skip inference, holds(e.to, e.from, cur)), so the edit is
// rebased and sent again over the user's undo. Root cause: plain Neovim
// answers applied: true for a skipped edit and merges the edit's change
// with the user's in one didChange, so neither the answer, the version
// (changedtick counts both the same way) nor the text tells a skip from
// an apply taken back. Only the text exactly back to the edit's base is
// not sent again (backToBase, TestAnEditTheUserUndidAtOnceIsNotSentAgain);
// the eukhe plugin (checksVersions: it refuses instead of skipping) has no
// such guess. A fix needs the editor to say what it skipped.
func TestOpenAnEditTheUserUndidWhileTypingElsewhereIsNotSentAgain(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() {
					time.Sleep(5 * time.Millisecond)
					e.typeAt("a.txt", 0, 0, "x") // held in the debounce
					replaceLine(e, "a.txt", 1, "two")
				}()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	if b := e.buf("a.txt"); b != "xone\ntwo\nthree\n" || calls != 1 {
		t.Fatalf("the user's undo of the edit was overwritten: buffer %q after %d applyEdit requests; reply:\n%s", b, calls, got.Text)
	}
}

// OPEN: the user closes a buffer that was opened with unsaved text (VS
// Code restores them at version 1) and opens the file again between
// eukhe's check and the editor's apply: the new buffer is at version 1
// too, so the editor's version check passes and the edit, made on the
// old text, lands on the disk's text ("disk one\ndisk two\nTHREE": line
// 3 replaced in a file of two). eukhe then says "not confirmed", true but
// the text is already mixed. Root cause: LSP versions start again at
// each didOpen, so a versioned edit cannot name which opening of a
// document it was made on; a fix needs the editor to refuse an edit
// whose document was reopened (a check of the text, not the version), or
// eukhe to send no edit to a buffer at the version it was opened at
// unless that text is the disk's.
func TestOpenAReopenedBufferAtTheSameVersionDoesNotTakeTheEdit(t *testing.T) {
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
}

// Open: marking a rebased landing unsaved (so it is not saved with the
// user's keystrokes) made a real VS Code refuse the next edits of a user
// typing on (test/vscode-real's typing race: 4 of 5 landed, in 5 runs
// of 5; saved as before, 5 of 5). The cause in VS Code is not known yet.
// A document with no unsaved changes when the edit was checked, the user
// typing before the apply: the edit is made again over the typing and
// lands, and the buffer now holds the user's unsaved keystrokes: eukhe
// does not save them behind the user's back (it saves only a document
// that holds nothing unsaved but the edit).
func TestOpenARebasedEditDoesNotSaveTheUsersTyping(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 2, 0, "half-typ")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if b := e.buf("a.txt"); got.IsError || b != "ONE\ntwo\nhalf-typthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if d := e.disk("a.txt"); d != "one\ntwo\nthree\n" {
		t.Fatalf("the user's unsaved keystrokes were saved: disk %q; reply:\n%s", d, got.Text)
	}
	if !strings.Contains(got.Text, "unsaved") {
		t.Errorf("the reply does not say the edit is unsaved:\n%s", got.Text)
	}
}

// Open, for the same reason as the one above: leaving a landing whose
// buffer holds more than the edit unsaved (the user typed as it landed)
// made the real VS Code's typing race fail in CI (3 of 5 landed): the
// unsaved buffer of a user typing on gets the next edits refused, for a
// cause not found yet.
// The same when the user types right after the edit lands, inside
// Neovim's debounce: the one didChange holds the edit and the typing (it
// landed: the typing is on another line), and the save must not write the
// typing to disk.
func TestOpenALandingWithTypingDoesNotSaveTheUsersTyping(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() { time.Sleep(5 * time.Millisecond); e.typeAt("a.txt", 2, 0, "half-typ"); e.flush("a.txt") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if b := e.buf("a.txt"); got.IsError || b != "ONE\ntwo\nhalf-typthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if d := e.disk("a.txt"); d != "one\ntwo\nthree\n" {
		t.Fatalf("the user's unsaved keystrokes were saved: disk %q; reply:\n%s", d, got.Text)
	}
}
