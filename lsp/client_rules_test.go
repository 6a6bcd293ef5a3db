package lsp

import (
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The rules of issue 15 against clients nobody here wrote, replayed in
// process: didChange out of order (Helix), a gap that never fills, no
// documentChanges, a didChange that comes late while the user types,
// applied: true without a didChange, and typing while an edit lands.

// send sends a didChange of whole-line inserts at a version, as an editor
// that numbers its own changes.
func (e *fakeEditor) sendChange(name string, version int32, line uint32, s string) {
	e.t.Helper()
	r := lsproto.Range{Start: lsproto.Position{Line: line}, End: lsproto.Position{Line: line}}
	err := e.server.DidChange(e.ctx(), &lsproto.DidChangeTextDocumentParams{
		TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: uri.File(e.path(name))}, Version: version},
		ContentChanges: []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangePartial{Range: r, Text: s}},
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// Helix's wire order under fast typing: 3, 1, 2, 5, 4 (versions 4, 2, 3,
// 6, 5 after the didOpen's 1). The copy is read in version order.
func TestOutOfOrderDidChangeIsReadInVersionOrder(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a plan\n")
	e.open("a.txt")
	// each change inserts a line at the top: version v's line is "v\n"
	for _, v := range []int32{4, 2, 3, 6, 5} {
		e.sendChange("a.txt", v, 0, string(rune('0'+v))+"\n")
	}
	got := e.tool("read", map[string]any{"path": "a.txt", "raw": true})
	if got.IsError || !strings.Contains(got.Text, "6\n5\n4\n3\n2\na plan\n") {
		t.Fatalf("read after out-of-order changes:\n%s", got.Text)
	}
}

// A version that never comes, from a client seen to reorder (Helix): past
// the bound the document is unknown, reads and edits of it refused saying
// how to re-sync; a full-text change or reopening it makes it known.
func TestAGapPastTheBoundOfAReorderingClientIsUnknownUntilResynced(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.srv.ov.gapWait = 20 * time.Millisecond
	e.put("a.txt", "one\ntwo\n")
	e.open("a.txt")
	e.sendChange("a.txt", 3, 0, "3\n")
	e.sendChange("a.txt", 2, 0, "2\n") // out of order: the client reorders
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.sendChange("a.txt", 5, 0, "five\n") // version 4 never comes
	got := e.tool("read", map[string]any{"path": "a.txt"})
	if !got.IsError || !strings.Contains(got.Text, "does not know the text of") || !strings.Contains(got.Text, "close it and open it again") || strings.Contains(got.Text, "five") {
		t.Fatalf("read of an unknown document:\n%s", got.Text)
	}
	edit := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if !edit.IsError || !strings.Contains(edit.Text, "does not know the text of") {
		t.Fatalf("edit of an unknown document:\n%s", edit.Text)
	}
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	if calls != 0 {
		t.Fatalf("%d applyEdit sent for an unknown document", calls)
	}
	if err := e.server.DidChange(e.ctx(), &lsproto.DidChangeTextDocumentParams{
		TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: uri.File(e.path("a.txt"))}, Version: 6},
		ContentChanges: []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: "whole\n"}},
	}); err != nil {
		t.Fatal(err)
	}
	if got := e.tool("read", map[string]any{"path": "a.txt", "raw": true}); got.IsError || !strings.HasSuffix(got.Text, "\nwhole\n") {
		t.Fatalf("read after a full-text change:\n%s", got.Text)
	}
	e.sendChange("a.txt", 4, 0, "late\n") // behind: unknown again
	e.close("a.txt")
	e.openText("a.txt", "three\none\ntwo\n")
	if got := e.tool("read", map[string]any{"path": "a.txt", "raw": true}); got.IsError || !strings.Contains(got.Text, "three\none\ntwo\n") {
		t.Fatalf("read after reopening:\n%s", got.Text)
	}
}

// A version that never comes, from a client never seen to reorder: the
// gap is its numbering (Neovim's changedtick), so the change applies after
// the bound.
func TestAGapThatNeverFillsIsTheClientsNumbering(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.srv.ov.gapWait = 20 * time.Millisecond
	e.put("a.txt", "one\ntwo\n")
	e.open("a.txt")
	e.sendChange("a.txt", 3, 0, "three\n") // no version 2
	if got := e.tool("read", map[string]any{"path": "a.txt", "raw": true}); got.IsError || !strings.HasSuffix(got.Text, "\nthree\none\ntwo\n") {
		t.Fatalf("read after a gap:\n%s", got.Text)
	}
}

// A client that did not announce documentChanges (and refuses them) gets
// `changes`, without versions; the edit lands and is verified; a move of
// an open document is refused before anything is sent.
func TestAClientWithoutDocumentChangesGetsChanges(t *testing.T) {
	e := newEditor(t, editorOpts{plain: true})
	got := e.tool("edit", map[string]any{"patch": threeFiles(t, e)})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("b.txt"); b != "b one\nb TWO\nb three\n" {
		t.Errorf("buffer b.txt = %q", b)
	}
	e.mu.Lock()
	for _, ed := range e.edits {
		if len(ed.DocumentChanges) > 0 || len(ed.Changes) == 0 {
			t.Errorf("a workspace edit with documentChanges, or without changes: %+v", ed)
		}
	}
	n := len(e.edits)
	e.mu.Unlock()
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	mv := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\nMV d.txt\n"})
	if !mv.IsError || !strings.Contains(mv.Text, "cannot rename") {
		t.Fatalf("a move of an open document in a client without resource operations:\n%s", mv.Text)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.edits) != n {
		t.Errorf("the refused move sent an applyEdit")
	}
}

// The edit's didChange comes after LandingWait (the editor applies it
// late, or tells it late), merged with the user's typing on another line,
// which it tells every 30 ms meanwhile. The wait grows while the document
// changes, the edit is confirmed, and every keystroke is in the buffer.
func TestALateDidChangeUnderTypingIsWaitedForAndConfirmed(t *testing.T) {
	// an editor that answers before it applies (not Neovim: it applies
	// first), its versions one more per didChange
	e := newEditor(t, editorOpts{debounce: true, gapless: true, wait: 100 * time.Millisecond})
	e.put("a.txt", "one\ntwo\nthree\nfour\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) { e.applyAfter = 250 * time.Millisecond })
	typed := make(chan int)
	go func() {
		n := 0
		for range 14 { // 420 ms of typing, told every 30 ms
			for range 3 {
				e.typeAt("a.txt", 3, 0, "k")
				n++
				time.Sleep(10 * time.Millisecond)
			}
			e.flush("a.txt")
		}
		typed <- n
	}()
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	n := <-typed
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b, want := e.buf("a.txt"), "ONE\ntwo\nthree\n"+strings.Repeat("k", n)+"four\n"; b != want {
		t.Fatalf("buffer %q, want %q: the edit or a keystroke is missing", b, want)
	}
}

// applied: true and no didChange within the waits: "not confirmed yet",
// never "NOT applied"; when the didChange comes after the reply, the edit
// is followed: it is reviewed then.
func TestAppliedWithoutDidChangeIsNotConfirmedAndFollowed(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, gapless: true, reviews: true, wait: 50 * time.Millisecond})
	e.put("a.txt", "one\ntwo\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) { e.applyAfter = 100 * time.Millisecond })
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
	if !strings.HasPrefix(got.Text, "not confirmed yet in a.txt") || strings.Contains(got.Text, "NOT applied") ||
		!strings.Contains(got.Text, "Read a.txt again before editing it again") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	for e.buf("a.txt") != "one\nTWO\n" {
		time.Sleep(5 * time.Millisecond) // the editor applies it, after the reply
	}
	e.flush("a.txt") // and tells it
	if r := e.lastReview(); len(r.Hunks) != 1 || !strings.HasSuffix(r.Hunks[0].URI, "a.txt") {
		t.Fatalf("review after the late landing: %+v", r)
	}
	if got := e.tool("read", map[string]any{"path": "a.txt", "raw": true}); !strings.Contains(got.Text, "one\nTWO\n") {
		t.Fatalf("read after the late landing:\n%s", got.Text)
	}
}

// A two-file edit while the user types in the first file on another line
// (per-document client): the first lands with the typing merged; the
// second is stale, so the first is put back with the user's typing kept:
// the edit lands nowhere, and no keystroke is lost.
func TestTypingWhileATwoFileEditLandsLosesNoKeystroke(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 200 * time.Millisecond})
	e.put("a.txt", "a one\na two\na three\n")
	e.put("b.txt", "b one\nb two\nb three\n")
	e.open("a.txt")
	e.open("b.txt")
	ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			switch call {
			case 1:
				// on line 3, just after the edit is applied: told with the
				// edit's change (Neovim's debounce)
				go func() {
					time.Sleep(5 * time.Millisecond)
					e.typeAt("a.txt", 2, 0, "typed ")
					e.flush("a.txt")
				}()
			case 2:
				e.typeAt("b.txt", 0, 0, "typed ")
				e.flush("b.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 1\n+A ONE\n[b.txt#" + tb + "]\n@@ 1\n+B ONE\n"})
	if !got.IsError || strings.Contains(got.Text, "Applied to") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("a.txt"); b != "a one\na two\ntyped a three\n" {
		t.Errorf("buffer a.txt = %q: the edit must be put back and the typing kept", b)
	}
	if b := e.buf("b.txt"); b != "typed b one\nb two\nb three\n" {
		t.Logf("reply:\n%s", got.Text)
		t.Errorf("buffer b.txt = %q", b)
	}
}

// Neovim without the plugin applies an edit at version 0 unchecked, and a
// buffer stays at version 0 while its first change is held in the
// debounce. The edit is preceded by a probe that makes Neovim tell what
// it held: a keystroke on the edit's own line is never overwritten (the
// edit is refused); without typing the edit lands, checked at its version.
func TestAnEditAtVersionZeroNeverOverwritesUnseenTyping(t *testing.T) {
	for _, typed := range []bool{true, false} {
		e := newEditor(t, editorOpts{debounce: true, zero: true, wait: 300 * time.Millisecond})
		e.put("a.txt", "one\ntwo\nthree\n")
		e.open("a.txt")
		tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		if typed {
			e.typeAt("a.txt", 1, 3, "X") // held: the server still has version 0
		}
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
		e.flush("a.txt")
		b := e.buf("a.txt")
		switch {
		case typed && (b != "one\ntwoX\nthree\n" || !got.IsError || !strings.Contains(got.Text, "the user changed line 2 of a.txt")):
			t.Errorf("typed: buffer %q, reply:\n%s", b, got.Text)
		case !typed && (b != "one\nTWO\nthree\n" || got.IsError):
			t.Errorf("not typed: buffer %q, reply:\n%s", b, got.Text)
		}
		e.mu.Lock()
		for _, ed := range e.edits[1:] {
			if v := ed.DocumentChanges[0].(*lsproto.TextDocumentEdit).TextDocument.Version; v == nil || *v == 0 {
				t.Errorf("typed %v: an edit was sent at version 0 after the probe", typed)
			}
		}
		e.mu.Unlock()
	}
}

// Neovim applies an edit before it answers and tells its changes in
// order: a didChange after its answer that holds the old text and not the
// edit means it skipped the edit (a buffer newer than the edit): the reply
// says NOT applied at once, truthfully, and the user's typing stays.
func TestNeovimSkippingAStaleEditIsKnownNotApplied(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 30 * time.Second})
	e.put("a.txt", "one\ntwo\nthree\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(int) {
			e.typeAt("a.txt", 2, 0, "typed ") // held: the edit is stale, Neovim skips it
			go func() { time.Sleep(10 * time.Millisecond); e.flush("a.txt") }()
		}
	})
	// The user types before every apply: each rebased edit is stale again,
	// until eukhe stops sending it.
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if !got.IsError || !strings.HasPrefix(got.Text, "NOT applied to a.txt") || !strings.Contains(got.Text, "skipped it") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("a.txt"); b != "one\ntwo\n"+strings.Repeat("typed ", maxRebases)+"three\n" {
		t.Fatalf("buffer %q", b)
	}
}

// Typing once, on another line, before Neovim applies: it skips the stale
// edit, which is made again over the typing and lands (issue 22, item 1).
func TestNeovimSkippingAStaleEditGetsItRebased(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 30 * time.Second})
	e.put("a.txt", "one\ntwo\nthree\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 2, 0, "typed ")
				go func() { time.Sleep(10 * time.Millisecond); e.flush("a.txt") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("a.txt"); b != "ONE\ntwo\ntyped three\n" {
		t.Fatalf("buffer %q", b)
	}
}

// A refusal is known at once: the server does not wait out the landing
// time (an hour here: a wait would not end within the test) for the
// refused document, and sends the rest no more (issue 15, item 8).
func TestARefusalEndsTheWaitAtOnce(t *testing.T) {
	e := newEditor(t, editorOpts{wait: time.Hour})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) { e.refuse = true })
	got := e.tool("edit", map[string]any{"patch": patch})
	if !got.IsError || !strings.HasPrefix(got.Text, "NOT applied to a.txt, b.txt, c.txt") || !strings.Contains(got.Text, "the user said no") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.applyCalls != 1 {
		t.Fatalf("%d applyEdit requests after the first was refused", e.applyCalls)
	}
}
