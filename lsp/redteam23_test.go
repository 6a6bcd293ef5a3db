package lsp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The twenty-third red team's rows on the edit watches checked at every
// change of a didChange (overlay.applyChanges), the save of a landing that
// holds more than the edit (save.go: heldSince), and the take-back of an
// edit that landed on a document opened again meanwhile (reopened.go).
// These are held; the rows that get through are in
// redteam23_open_attacks_test.go.

// deleteAt is the user deleting n units at a position, held (debounce) or
// told at once as typeAt is.
func deleteAt(e *fakeEditor, name string, line, char, n uint32) {
	e.t.Helper()
	e.mu.Lock()
	b := e.bufs[e.path(name)]
	r := lsproto.Range{Start: lsproto.Position{Line: line, Character: char}, End: lsproto.Position{Line: line, Character: char + n}}
	ch := e.applyOne(b, r, "")
	b.tick++
	b.pending = append(b.pending, ch)
	debounce := e.opts.debounce
	e.mu.Unlock()
	if !debounce {
		e.flush(name)
	}
}

// The edit deletes line 4 of the buffer as checked; the buffer opened again
// has one line, so the edit's text edit (clamped) changes nothing on it:
// nothing is taken back, nothing is said to be applied.
func TestRedteam23_AnEditThatChangesNothingOnTheReopenedText(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "x\n")
	e.openText("a.txt", "one\ntwo\nthree\nfour\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 4\n"})
	b := e.buf("a.txt")
	t.Logf("buffer %q; reply:\n%s", b, got.Text)
	if b != "x\n" || strings.HasPrefix(got.Text, "Applied") {
		t.Errorf("buffer %q; reply:\n%s", b, got.Text)
	}
}

// Closed and opened again at the very text the edit was made on (the user
// saved first): the edit landed where it was meant, and stays, Applied.
func TestRedteam23_AReopenAtTheSameTextKeepsTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.put("a.txt", "one\ntwo\nthree\n") // the user saved it
				e.close("a.txt")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	b := e.buf("a.txt")
	t.Logf("buffer %q; reply:\n%s", b, got.Text)
	if b != "one\ntwo\nTHREE\n" || got.IsError || !strings.HasPrefix(got.Text, "Applied") {
		t.Errorf("buffer %q; reply:\n%s", b, got.Text)
	}
}

// Held since stop 41 (it was open: high: a false "Applied"). Neovim without the plugin: the user types
// on line 1 (the buffer is newer than the edit, so Neovim skips it) and,
// inside the same debounce, types "x" at the end of line 2 and deletes it
// again. The one didChange passes through "two" -> "twox", which is
// exactly the edit's text (with the typing on line 1 elsewhere):
// overlay.applyChanges checks the watch between the changes, takes it for
// the edit landing, and the reply says "Applied to a.txt#…" and "it
// landed" (with a warning that the buffer no longer holds it). The editor
// never applied it. Root cause: passed() judges by the text alone; an
// intermediate text reached by the user's own changes is taken for the
// edit. A fix: count a hit between changes only when the change that
// made it is one of the edit's text edits as sent.
func TestRedteam23_TypingThroughTheEditsTextIsNotCalledApplied(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 0, 0, "k")
				e.typeAt("a.txt", 1, 3, "x")
				deleteAt(e, "a.txt", 1, 3, 1)
				go func() { time.Sleep(10 * time.Millisecond); e.flush("a.txt") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+twox\n"})
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	b := e.buf("a.txt")
	applied := strings.HasPrefix(got.Text, "Applied")
	if !strings.HasPrefix(b, "kone\n") || applied != (b == "kone\ntwox\nthree\n") {
		t.Fatalf("the reply is not true to the buffer %q (after %d applyEdit requests):\n%s", b, calls, got.Text)
	}
}

// Held since stop 41 (it was open: high: the user's text lost, and, for Neovim, a false "the editor
// applied the edit"). The buffer (unsaved "teh cat") is closed and opened
// again at the disk's text ("teh dog") while the edit (add "// " before
// line 2) is on its way, and the user types "// " there themselves. VS
// Code refuses the edit (version 2), Neovim skips it (buffer newer): the
// editor applied nothing. landedOnReopened runs for every document not
// reached, refused or not, sees the buffer hold the edit's text edits
// applied to the reopened text, and "takes back" the user's own "// ":
// the buffer is back at "teh dog". The reply says "not applied" (VS Code,
// naming the user's change as the reason) or "the editor applied the edit
// to the reopened text; eukhe took it back" (Neovim): the editor did not.
// Root cause: the take-back is inferred from the text alone, even after a
// refusal, and it runs before the switch that says the edit was refused.
func TestRedteam23_TakeBackKeepsTheUsersOwnChangeOnAReopenedBuffer(t *testing.T) {
	for _, o := range []editorOpts{{transactional: true, wait: 300 * time.Millisecond}, {wait: 300 * time.Millisecond}} {
		e := newEditor(t, o)
		e.put("a.txt", "a\nteh dog\nc\n")
		e.openText("a.txt", "a\nteh cat\nc\n")
		tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == 1 {
					e.close("a.txt")
					e.open("a.txt")
					e.typeAt("a.txt", 1, 0, "// ") // the user's own, after the reopening
				}
			}
		})
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+// teh cat\n"})
		if b := e.buf("a.txt"); b != "a\n// teh dog\nc\n" {
			t.Errorf("transactional %v: the user's own change on the reopened buffer was taken back: buffer %q; reply:\n%s", o.transactional, b, got.Text)
		}
		if strings.Contains(got.Text, "the editor applied the edit") {
			t.Errorf("transactional %v: the reply says the editor applied the edit; it did not:\n%s", o.transactional, got.Text)
		}
	}
}

// Held since stop 41 (it was open: high: the user's unsaved typing saved, and a false warning). A
// two-file edit; a.txt lands, the user types on another line of it, and a
// didChange of a.txt comes out of order while b.txt's landing is awaited:
// a.txt is unknown. heldSince takes an unknown (lost) document for one
// that holds only the edit, so eukhe asks the editor to save it: the
// user's keystrokes are written to disk. The warning then says "the editor
// did not save it", which is false too. A document whose text is not known
// must not be saved (it may hold anything the user typed).
func TestRedteam23_AnUnknownDocumentIsNotSavedWithTheUsersTyping(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, transactional: true, wait: 300 * time.Millisecond})
	ta := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	tb := oneFile(t, e, "b.txt", "b one\nb two\n")
	e.set(func(e *fakeEditor) {
		e.tellLate = map[string]time.Duration{e.path("b.txt"): 300 * time.Millisecond}
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() {
					time.Sleep(80 * time.Millisecond)
					e.typeAt("a.txt", 2, 0, "half-typ")
					// a didChange of the user's that comes out of order: a.txt is unknown
					e.mu.Lock()
					u := e.bufs[e.path("a.txt")].uri
					e.mu.Unlock()
					_ = e.server.DidChange(context.Background(), &lsproto.DidChangeTextDocumentParams{
						TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: u}, Version: 1},
						ContentChanges: []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangePartial{Text: ""}},
					})
				}()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 1\n+ONE\n[b.txt#" + tb + "]\n@@ 1\n+B ONE\n"})
	if b := e.buf("a.txt"); b != "ONE\ntwo\nhalf-typthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if d := e.disk("a.txt"); strings.Contains(d, "half-typ") {
		t.Errorf("the user's unsaved keystrokes were saved: disk %q; reply:\n%s", d, got.Text)
	}
}

// Held since stop 41 (it was open, medium, from overlay.open): a second
// name of a.txt (a symlink) opened in the editor while an edit of a.txt is
// on its way no longer takes a.txt's place under its real path: a.txt's
// didChange is taken, the edit lands, and reads of a.txt serve a.txt's
// buffer.
func TestRedteam23_ALinkOpenedWhileTheEditIsOnItsWay(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	if err := os.Symlink("a.txt", e.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.open("link.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	b := e.buf("a.txt")
	if b != "ONE\ntwo\nthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if r := e.tool("read", map[string]any{"path": "a.txt"}); !strings.Contains(r.Text, "1:ONE") {
		t.Errorf("a read of a.txt does not see the buffer's text %q (the edit said:\n%s):\n%s", b, got.Text, r.Text)
	}
}

// A file open under its own name and under a link: closed under its own
// name, its buffer is the link's (reads of a.txt serve the link's
// unsaved text, not the disk's).
func TestAFileClosedUnderItsNameIsTheBufferOfItsOtherName(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk\n")
	if err := os.Symlink("a.txt", e.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	e.openText("a.txt", "own buffer\n")
	e.openText("link.txt", "link buffer\n")
	if r := e.tool("read", map[string]any{"path": "a.txt"}); !strings.Contains(r.Text, "own buffer") {
		t.Fatalf("a read of a.txt open under its own name:\n%s", r.Text)
	}
	e.close("a.txt")
	if r := e.tool("read", map[string]any{"path": "a.txt"}); !strings.Contains(r.Text, "link buffer") {
		t.Fatalf("a read of a.txt, closed under its name and open as link.txt:\n%s", r.Text)
	}
}

// Held since stop 41 (it was open, medium: performance): overlay.applyChanges
// looked at the watches between every two changes of one didChange with
// holds (two line diffs of the whole document each, under o.mu): on 2
// cores, 10000 lines under -race, 20/40 changes took 0.46/0.73 s with a
// watch waiting (about 1000 times the plain cost). Between changes it now
// compares bytes only (passed), and holds runs once at the notification's
// end: 3.4/3.9 ms. Not a timed assertion: the test logs, the benchmark
// measures.
func redteam23ManyChanges(tb testing.TB, lines, n int, watched bool) time.Duration {
	var sb strings.Builder
	for i := range lines {
		fmt.Fprintf(&sb, "line %d of the big file, some text to make it longer\n", i)
	}
	big := sb.String()
	o := newOverlay()
	path := tb.TempDir() + "/big.txt"
	u := uri.File(path)
	o.open(u, 1, big)
	if watched {
		want := strings.Replace(big, "line 0 of", "LINE 0 of", 1)
		w := o.watch(path, []byte(big), []byte(want), nil)
		defer o.unwatch(w)
	}
	changes := make([]lsproto.TextDocumentContentChangeEvent, n)
	at := lsproto.Position{Line: uint32(lines / 2)}
	for i := range changes {
		changes[i] = &lsproto.TextDocumentContentChangePartial{Range: lsproto.Range{Start: at, End: at}, Text: "k"}
	}
	start := time.Now()
	if err := o.change(u, 2, changes); err != nil {
		tb.Fatal(err)
	}
	return time.Since(start)
}

func TestRedteam23_ManyChangesWhileAWatchWaits(t *testing.T) {
	for _, n := range []int{20, 40} {
		plain := redteam23ManyChanges(t, 10000, n, false)
		watched := redteam23ManyChanges(t, 10000, n, true)
		t.Logf("10000 lines, %d changes in one didChange: %v without a watch, %v with one", n, plain, watched)
	}
}

func BenchmarkRedteam23_ManyChangesWhileAWatchWaits(b *testing.B) {
	for _, watched := range []bool{false, true} {
		b.Run(fmt.Sprintf("watched=%v", watched), func(b *testing.B) {
			for b.Loop() {
				redteam23ManyChanges(b, 20000, 100, watched)
			}
		})
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts), the fake
// editor's too; it was open: (medium: the edit stays on text it was not made on). Closed and
// opened again twice before the editor applies the edit (both at version
// 1): reopenedText gives nil for any count but one, so nothing is taken
// back, and the buffer holds "THREE" appended to the disk's two lines, an
// edit on lines the agent never saw. The reply says "not confirmed yet …
// it may still land", not that it landed on other text.
func TestRedteam23_TwoReopensDoNotKeepTheEditOnOtherText(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				e.open("a.txt")
				e.close("a.txt")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	if b := e.buf("a.txt"); b != "disk one\ndisk two\n" {
		t.Errorf("the edit stays on the twice reopened buffer's other text: %q; reply:\n%s", b, got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts), the fake
// editor's too; it was open: (high: a false "not tried" about an edit that landed; not
// all-or-nothing). VS Code, one applyEdit for a.txt and b.txt, a.txt
// first in the commit's order, closed and opened again before the apply:
// both land; a.txt is taken back and fails, b.txt landed (reached) but the
// commit engine stops at a.txt's failure and reports "b.txt not tried:
// a.txt failed first" without putting it back: b.txt keeps the edit's
// line. commit.go turns an Untried outcome of a document the editor took
// into Unconfirmed, but not a landed one into Landed, and nothing restores
// it.
func TestRedteam23_AMultiFileEditWithTheReopenedFirstLandsNothing(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
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
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 3\n+THREE\n[b.txt#" + tb + "]\n@@ 1\n+B ONE\n"})
	ba, bb := e.buf("a.txt"), e.buf("b.txt")
	if ba != "disk one\ndisk two\n" || bb != "b one\nb two\n" {
		t.Errorf("not all-or-nothing: a.txt %q, b.txt %q; reply:\n%s", ba, bb, got.Text)
	}
	if strings.Contains(bb, "B ONE") && strings.Contains(got.Text, "b.txt not tried") {
		t.Errorf("b.txt holds the edit, and the reply says it was not tried:\n%s", got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts), the fake
// editor's too; it was open: (medium: the reply does not say the edit landed on other text).
// The edit lands on the reopened text, and the user types on the edit's
// line before eukhe looks: the buffer no longer holds the wrong edit with
// changes elsewhere only, so landedOnReopened says nothing (its "its lines
// changed again" branch cannot be reached: holds already failed), and the
// reply says "not confirmed yet … it may still land" while the edit's line
// is in the buffer on text it was not made on.
func TestRedteam23_ATakeBackRacedByTypingOnTheEditsLineIsToldTrue(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				e.open("a.txt")
				go func() { time.Sleep(60 * time.Millisecond); e.typeAt("a.txt", 2, 5, "!") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	if b := e.buf("a.txt"); strings.Contains(b, "THREE") || !strings.Contains(b, "!") {
		t.Fatalf("buffer %q (the edit on the reopened text, or the typing lost); reply:\n%s", b, got.Text)
	}
	if !got.IsError || strings.Contains(got.Text, "Applied") {
		t.Errorf("the reply does not say the edit did not land:\n%s", got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts), the fake
// editor's too; it was open: (medium: the edit stays on text it was not made on). An edit with a
// move (MV b.txt) on a buffer closed and opened again before the apply:
// landedOnReopened skips moves, so the line lands on the reopened text,
// the buffer is moved to b.txt with it, and the reply says "not confirmed".
func TestRedteam23_AMoveOnAReopenedDocumentIsNotKeptOnOtherText(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
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
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\nMV b.txt\n"})
	if ba, bb := e.buf("a.txt"), e.buf("b.txt"); strings.Contains(ba+bb, "THREE") {
		t.Errorf("the move's edit stays on the reopened buffer's other text: a.txt %q, b.txt %q; reply:\n%s", ba, bb, got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts), the fake
// editor's too; it was open: (low: a false warning). The buffer is closed and opened again at
// the disk's text, which has one more line far from the edit: the edit
// lands (holds), and the save's warning says "the user typed in it while
// the edit landed"; nobody typed.
func TestRedteam23_TheWarningOfALandingOnAReopenedTextIsTrue(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "one\ntwo\nthree\nfour\n")
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
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if strings.Contains(got.Text, "the user typed in it") {
		t.Errorf("the warning says the user typed; nobody did (buffer %q):\n%s", e.buf("a.txt"), got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts).
// The edit lands on a buffer closed and opened again (VS Code, version 1
// both times), and the editor refuses eukhe's take-back: the reply says
// the edit is on the wrong text and taking it back failed, never Applied.
func TestRedteam23_ARefusedTakeBackIsToldTrue(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			switch call {
			case 1:
				e.close("a.txt")
				e.open("a.txt")
			case 2:
				e.mu.Lock()
				e.refuse = true
				e.mu.Unlock()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	b := e.buf("a.txt")
	t.Logf("buffer %q; reply:\n%s", b, got.Text)
	if b != "disk one\ndisk two\n" || !got.IsError || strings.Contains(got.Text, "Applied") {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts).
// The user types on another line as the take-back is applied (VS Code
// refuses the take-back's stale version): it is made again over the typing
// and lands; the typing stays, and the reply says the edit was taken back.
func TestRedteam23_ATakeBackRacedByTypingElsewhereKeepsTheTyping(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			switch call {
			case 1:
				e.close("a.txt")
				e.open("a.txt")
			case 2:
				e.typeAt("a.txt", 0, 0, "typed ")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	b := e.buf("a.txt")
	t.Logf("buffer %q; reply:\n%s", b, got.Text)
	if strings.Contains(b, "THREE") || !got.IsError || strings.Contains(got.Text, "Applied") {
		t.Errorf("buffer %q; reply:\n%s", b, got.Text)
	}
}

// Held since stop 41 by the VS Code extension's text check (checksTexts).
// The file is renamed away (its buffer follows) and a new file opened
// under its name while the edit is on its way: the edit lands on the new
// file's buffer (version 1 again) and is taken back; the reply says so.
func TestRedteam23_ANewDocumentAtTheRenamedNameDoesNotKeepTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				if err := os.Rename(e.path("a.txt"), e.path("old.txt")); err != nil {
					t.Error(err)
				}
				e.open("old.txt")
				e.put("a.txt", "new file\n")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	b := e.buf("a.txt")
	t.Logf("buffer %q old %q; reply:\n%s", b, e.buf("old.txt"), got.Text)
	if b != "new file\n" || !got.IsError || strings.Contains(got.Text, "Applied") {
		t.Errorf("buffer %q; reply:\n%s", b, got.Text)
	}
}
