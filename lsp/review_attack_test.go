package lsp

import (
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/protocol"
)

// The red team's attacks on undo under typing (review_follow.go): the
// buffer saved, closed and reopened; closed unsaved; a second edit; a hunk
// at the end without a final newline; typing between the undo's read and
// its apply; a rebased edit's review.

// undoHunk undoes hunk k (all of the file when k < 0) of the edit r in name.
func undoHunk(e *fakeEditor, r protocol.ReviewParams, name string, k int) protocol.ReviewDecisionResult {
	e.t.Helper()
	p := protocol.ReviewDecisionParams{EditID: r.EditID, URI: string(uri.File(e.path(name))), Decision: protocol.DecisionUndo}
	if k >= 0 {
		p.Hunk = &k
	}
	return e.decide(p)
}

// replaceLine is the user replacing line n's text (its ending kept).
func replaceLine(e *fakeEditor, name string, n uint32, text string) {
	e.t.Helper()
	e.mu.Lock()
	b := e.bufs[e.path(name)]
	l := strings.Split(b.text, "\n")[n]
	l = strings.TrimSuffix(l, "\r")
	ch := e.applyOne(b, lsproto.Range{Start: lsproto.Position{Line: n}, End: lsproto.Position{Line: n, Character: units(e, l)}}, text)
	b.tick++
	b.pending = append(b.pending, ch)
	e.mu.Unlock()
	e.flush(name)
}

// The user types above the hunks, saves, closes the buffer and opens it
// again: the undo follows the hunks in the new buffer and keeps the
// typing. Closed after saving, the undo goes to the disk, the same.
func TestUndoAfterSaveCloseAndReopenKeepsTheTyping(t *testing.T) {
	for _, reopen := range []bool{true, false} {
		e := newEditor(t, editorOpts{reviews: true})
		r := reviewed(t, e)
		e.typeAt("a.txt", 0, 0, "typed ")
		e.put("a.txt", e.buf("a.txt")) // saved
		e.close("a.txt")
		if reopen {
			e.open("a.txt")
		}
		res := undoHunk(e, r, "a.txt", -1)
		got := e.disk("a.txt")
		if reopen {
			got = e.buf("a.txt")
		}
		if !res.Applied || got != "typed 1\n2\n3\n4\n5\n" {
			t.Fatalf("reopen %v: %+v; text %q", reopen, res, got)
		}
	}
}

// Closed without saving, the edit is gone from the disk's text: the
// disk is not the text the edit left, its hunks' lines are the old ones,
// and the undo is refused, writing nothing.
func TestUndoAfterTheBufferWasClosedUnsavedIsRefused(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	before := e.disk("a.txt")
	e.close("a.txt")
	res := undoHunk(e, r, "a.txt", -1)
	if res.Applied || strings.HasPrefix(res.Message, "undo: Applied") {
		t.Fatalf("undo of a file the editor never saved: %+v", res)
	}
	if d := e.disk("a.txt"); d != before {
		t.Fatalf("disk %q, was %q", d, before)
	}
}

// A second edit after the first, next to its hunk and then on it: the
// first edit's hunk undoes next to the second's lines, and is refused once
// the second edit changed its lines.
func TestUndoOfAnEarlierEditAfterALaterOne(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e) // a.txt: 1 two 3 four FOUR 5
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"}); got.IsError {
		t.Fatal(got.Text)
	}
	res := undoHunk(e, r, "a.txt", 0)
	if b := e.buf("a.txt"); !res.Applied || b != "1\n2\nTHREE\nfour\nFOUR\n5\n" {
		t.Fatalf("undo of the first edit's hunk 0 next to the second edit: %+v; buffer %q", res, b)
	}
	tag = tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 4\n+fOUr\n"}); got.IsError {
		t.Fatal(got.Text)
	}
	res = undoHunk(e, r, "a.txt", 1)
	if b := e.buf("a.txt"); res.Applied || b != "1\n2\nTHREE\nfOUr\nFOUR\n5\n" {
		t.Fatalf("undo of a hunk a later edit changed: %+v; buffer %q", res, b)
	}
}

// A hunk at the end of a file without a final newline: typing above it
// keeps the undo; typing at the very end of its line refuses it.
func TestUndoOfAHunkAtTheEndWithoutAFinalNewline(t *testing.T) {
	for _, atEnd := range []bool{false, true} {
		e := newEditor(t, editorOpts{reviews: true})
		tag := oneFile(t, e, "a.txt", "one\r\ntwo\r\nthree")
		if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"}); got.IsError {
			t.Fatal(got.Text)
		}
		landed := e.buf("a.txt")
		r := e.lastReview()
		if atEnd {
			last := landed[strings.LastIndex(landed, "\n")+1:]
			e.typeAt("a.txt", 2, units(e, strings.TrimSuffix(last, "\r\n")), "!")
		} else {
			e.typeAt("a.txt", 0, 0, "typed ")
		}
		typed := e.buf("a.txt")
		res := undoHunk(e, r, "a.txt", -1)
		b := e.buf("a.txt")
		switch {
		case atEnd && (res.Applied || b != typed):
			t.Fatalf("undo over typing on the hunk's own last line: %+v; buffer %q", res, b)
		case !atEnd && (!res.Applied || b != "typed one\r\ntwo\r\nthree"):
			t.Fatalf("undo over typing above: %+v; buffer %q (landed %q)", res, b, landed)
		}
	}
}

// The user types between the undo's read and its apply: on another line,
// the undo is rebased and lands with the typing kept, and the next undo of
// the same file still follows its hunks; on the hunk's own line, the undo
// is refused, says so, and the hunk stays under review.
func TestTypingDuringTheUndosApply(t *testing.T) {
	for _, onHunk := range []bool{false, true} {
		e := newEditor(t, editorOpts{reviews: true, transactional: true, wait: 300 * time.Millisecond})
		r := reviewed(t, e) // a.txt: 1 two 3 four FOUR 5
		e.mu.Lock()
		calls := e.applyCalls
		e.mu.Unlock()
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == calls+1 {
					if onHunk {
						e.typeAt("a.txt", 3, 0, "typed ") // "four": hunk 1's line
					} else {
						e.typeAt("a.txt", 0, 0, "typed ")
					}
				}
			}
		})
		res := undoHunk(e, r, "a.txt", 1)
		b := e.buf("a.txt")
		if onHunk {
			if res.Applied || strings.HasPrefix(res.Message, "undo: Applied") || b != "1\ntwo\n3\ntyped four\nFOUR\n5\n" {
				t.Fatalf("undo over typing on its own line: %+v; buffer %q", res, b)
			}
			if res := undoHunk(e, r, "a.txt", 0); !res.Applied || e.buf("a.txt") != "1\n2\n3\ntyped four\nFOUR\n5\n" {
				t.Fatalf("undo of the other hunk: %+v; buffer %q", res, e.buf("a.txt"))
			}
			continue
		}
		if !res.Applied || b != "typed 1\ntwo\n3\n4\n5\n" {
			t.Fatalf("undo over typing elsewhere during its apply: %+v; buffer %q", res, b)
		}
		if tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text); !strings.Contains(res.Message, "a.txt#"+tag) {
			t.Errorf("the undo says it landed as %q; the buffer's tag is %s", res.Message, tag)
		}
		e.typeAt("a.txt", 2, 0, "more ")
		if res := undoHunk(e, r, "a.txt", 0); !res.Applied || e.buf("a.txt") != "typed 1\n2\nmore 3\n4\n5\n" {
			t.Fatalf("the next undo: %+v; buffer %q", res, e.buf("a.txt"))
		}
	}
}

// An edit rebased over typing above it: its review shows its own hunk,
// in the rebased text, and an undo of it keeps the typing.
func TestARebasedEditsReviewAndUndoKeepTheTyping(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true, transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 0, 0, "typed\n")
			}
		}
	})
	if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"}); got.IsError {
		t.Fatal(got.Text)
	}
	r := e.lastReview()
	if len(r.Hunks) != 1 || r.Hunks[0].Before != "three\n" || r.Hunks[0].After != "THREE\n" || r.Hunks[0].Range.Start.Line != 3 {
		t.Fatalf("review of the rebased edit: %+v", r.Hunks)
	}
	e.set(func(e *fakeEditor) { e.beforeApply = nil })
	if res := undoHunk(e, r, "a.txt", -1); !res.Applied || e.buf("a.txt") != "typed\none\ntwo\nthree\n" {
		t.Fatalf("undo: %+v; buffer %q", res, e.buf("a.txt"))
	}
}

// The user changes the hunk's line and changes it back, identically: the
// text is the edit's again, and the undo puts the hunk back.
func TestUndoOfAHunkTheUserRetypedIdentically(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	replaceLine(e, "a.txt", 1, "TWO")
	replaceLine(e, "a.txt", 1, "two")
	if res := undoHunk(e, r, "a.txt", 0); !res.Applied || e.buf("a.txt") != "1\n2\n3\nfour\nFOUR\n5\n" {
		t.Fatalf("undo: %+v; buffer %q", res, e.buf("a.txt"))
	}
}

// Undo of a whole edit over two files, one of which the user typed on
// during the undo's apply: nothing of the undo lands (the closed file is
// not written), and both stay under review.
func TestAnUndoOfTwoFilesRefusedInOneLandsInNeither(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true, transactional: true, wait: 300 * time.Millisecond})
	r := reviewed(t, e)
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == calls+1 {
				e.typeAt("a.txt", 1, 0, "typed ") // "two": hunk 0's line
			}
		}
	})
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo})
	if res.Applied || strings.HasPrefix(res.Message, "undo: Applied") {
		t.Fatalf("undo: %+v", res)
	}
	if d := e.disk("c.txt"); d != "C1\nc2\n" {
		t.Fatalf("the closed file was undone though the open one was not: %q (%s)", d, res.Message)
	}
	if b := e.buf("a.txt"); b != "1\ntyped two\n3\nfour\nFOUR\n5\n" {
		t.Fatalf("buffer %q", b)
	}
	e.set(func(e *fakeEditor) { e.beforeApply = nil })
	if res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: string(uri.File(e.path("c.txt"))), Decision: protocol.DecisionUndo}); !res.Applied || e.disk("c.txt") != "c1\nc2\n" {
		t.Fatalf("undo of the closed file alone: %+v", res)
	}
}

// The user turns the file's line endings to CRLF after the edit: every
// line changed, the hunks' too, so the undo is refused and the text stays.
func TestUndoAfterTheLineEndingsChangedIsRefused(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	for l := range uint32(6) {
		e.typeAt("a.txt", l, units(e, strings.Split(e.buf("a.txt"), "\n")[l]), "\r")
	}
	typed := e.buf("a.txt")
	if res := undoHunk(e, r, "a.txt", -1); res.Applied || e.buf("a.txt") != typed {
		t.Fatalf("undo: %+v; buffer %q", res, e.buf("a.txt"))
	}
}

// Astral characters (two UTF-16 units, four UTF-8 bytes) before the
// user's keystroke and in the hunks, CRLF, no final newline: the undo of
// the last lines' hunk keeps the keystroke where it was typed, in both
// encodings.
func TestUndoUnderTypingCountsColumnsInTheEditorsUnits(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		e := newEditor(t, editorOpts{reviews: true, enc: enc})
		tag := oneFile(t, e, "a.txt", "😀a\r\n😀b\r\n😀c")
		if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+😀B\n@@ 3\n+😀C\n"}); got.IsError {
			t.Fatal(got.Text)
		}
		r := e.lastReview()
		landed := e.buf("a.txt")
		e.typeAt("a.txt", 0, units(e, "😀"), "𝄞")
		last := r.Hunks[len(r.Hunks)-1].Hunk
		res := undoHunk(e, r, "a.txt", last)
		// lines 2 and 3 are one hunk
		want := strings.NewReplacer("😀a", "😀𝄞a", "😀B", "😀b", "😀C", "😀c").Replace(landed)
		if b := e.buf("a.txt"); !res.Applied || b != want {
			t.Fatalf("%s: undo: %+v; buffer %q, want %q", enc, res, b, want)
		}
	}
}

// Undo of a two-file edit to a per-document client (Neovim): the first
// file's undo lands, the second is refused (the user typed on its hunk's
// line during its apply): the first is put back to the edit's text, the
// reply says the undo did not apply, and the first file's hunk can still
// be undone alone afterwards.
func TestAnUndoOfTwoOpenFilesRefusedInTheSecondIsPutBackInTheFirst(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true, debounce: true, wait: 300 * time.Millisecond})
	for _, n := range []string{"a", "b"} {
		e.put(n+".txt", n+" one\n"+n+" two\n"+n+" three\n")
		e.open(n + ".txt")
	}
	ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
	if got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 2\n+a TWO\n[b.txt#" + tb + "]\n@@ 2\n+b TWO\n"}); got.IsError {
		t.Fatal(got.Text)
	}
	r := e.lastReview()
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == calls+2 { // b.txt's undo
				e.typeAt("b.txt", 1, 0, "typed ")
				go func() { time.Sleep(10 * time.Millisecond); e.flush("b.txt") }()
			}
		}
	})
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo})
	if res.Applied || strings.HasPrefix(res.Message, "undo: Applied") {
		t.Fatalf("undo: %+v", res)
	}
	if b := e.buf("a.txt"); b != "a one\na TWO\na three\n" {
		t.Fatalf("a.txt = %q: its undo must be put back (%s)", b, res.Message)
	}
	if b := e.buf("b.txt"); b != "b one\ntyped b TWO\nb three\n" {
		t.Fatalf("b.txt = %q", b)
	}
	e.set(func(e *fakeEditor) { e.beforeApply = nil })
	if res := undoHunk(e, r, "a.txt", -1); !res.Applied || e.buf("a.txt") != "a one\na two\na three\n" {
		t.Fatalf("undo of a.txt alone: %+v; buffer %q", res, e.buf("a.txt"))
	}
}
