package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/docs"
)

// Edits through the editor: open documents get verified workspace edits,
// closed files the disk writer, and the reply says exactly what landed.

// threeFiles puts a.txt, b.txt, c.txt on disk, opens a and b, reads all
// three, and gives the patch that changes line 2 of each.
func threeFiles(t *testing.T, e *fakeEditor) string {
	t.Helper()
	for _, n := range []string{"a", "b", "c"} {
		e.put(n+".txt", fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n))
	}
	e.open("a.txt")
	e.open("b.txt")
	var patch strings.Builder
	for _, n := range []string{"a", "b", "c"} {
		r := e.tool("read", map[string]any{"path": n + ".txt"})
		fmt.Fprintf(&patch, "[%s.txt#%s]\n@@ 2\n+%s TWO\n", n, tagOf(t, r.Text), n)
	}
	return patch.String()
}

func TestEditLandsInOpenBuffersAndOnDiskForClosedFiles(t *testing.T) {
	e := newEditor(t, editorOpts{})
	got := e.tool("edit", map[string]any{"patch": threeFiles(t, e)})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") || strings.Contains(got.Text, "NOT") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	for _, n := range []string{"a", "b"} {
		want := fmt.Sprintf("%s one\n%s TWO\n%s three\n", n, n, n)
		if b := e.buf(n + ".txt"); b != want {
			t.Errorf("buffer %s.txt = %q, want %q", n, b, want)
		}
		if d := e.disk(n + ".txt"); d == want {
			t.Errorf("%s.txt was written on disk behind the editor (it has no eukhe/saveDocuments)", n)
		}
		tag := docs.DigestOf([]byte(want)).Tag().String()
		if !strings.Contains(got.Text, n+".txt#"+tag) {
			t.Errorf("the reply does not tag %s.txt with its buffer's new text (%s):\n%s", n, tag, got.Text)
		}
		if !strings.Contains(got.Text, "warning: "+n+".txt: the edit is in the editor's buffer, unsaved") {
			t.Errorf("the reply does not say %s.txt is unsaved:\n%s", n, got.Text)
		}
	}
	if d := e.disk("c.txt"); d != "c one\nc TWO\nc three\n" {
		t.Errorf("closed c.txt on disk = %q", d)
	}
	if b := e.buf("c.txt"); b != "<closed>" {
		t.Errorf("the closed file was opened in the editor: %q", b)
	}
	// Neovim-like clients get one applyEdit per document, each a
	// TextDocumentEdit at the document's exact version replacing what
	// changed in line 2 only.
	if len(e.edits) != 2 {
		t.Fatalf("%d applyEdit requests, want one per open document (2)", len(e.edits))
	}
	for _, we := range e.edits {
		if len(we.DocumentChanges) != 1 {
			t.Fatalf("a workspace edit with %d changes", len(we.DocumentChanges))
		}
		td := we.DocumentChanges[0].(*lsproto.TextDocumentEdit)
		if td.TextDocument.Version == nil || *td.TextDocument.Version != 1 {
			t.Errorf("the edit of %s is not at the document's version 1", td.TextDocument.URI)
		}
		te := td.Edits[0].(*lsproto.TextEdit)
		if len(td.Edits) != 1 || te.Range.Start.Line != 1 || te.Range.End.Line != 1 || te.Range.Start.Character == 0 {
			t.Errorf("not a minimal line-range edit: %+v", td.Edits)
		}
	}
	// A read after the edit sees the buffer, with the tag the reply gave.
	r := e.tool("read", map[string]any{"path": "a.txt"})
	if !strings.Contains(got.Text, "a.txt#"+tagOf(t, r.Text)) {
		t.Errorf("read after the edit gives another tag:\n%s\nreply:\n%s", r.Text, got.Text)
	}
}

func TestOneApplyEditForAClientThatChecksEveryVersion(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true})
	got := e.tool("edit", map[string]any{"patch": threeFiles(t, e)})
	if got.IsError || strings.Contains(got.Text, "NOT") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if len(e.edits) != 1 || len(e.edits[0].DocumentChanges) != 2 {
		t.Fatalf("want one applyEdit with both open documents; got %d requests", len(e.edits))
	}
}

func TestSavesDocumentsThatWereCleanOnly(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true})
	e.put("a.txt", "a1\na2\n")
	e.put("b.txt", "b1\nb2\n")
	e.open("a.txt")
	e.openText("b.txt", "b1\nb2\nunsaved\n")
	ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\n@@ 1\n+A1\n[b.txt#%s]\n@@ 1\n+B1\n", ta, tb)})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if d := e.disk("a.txt"); d != "A1\na2\n" {
		t.Errorf("the clean document was not saved: disk has %q", d)
	}
	if d := e.disk("b.txt"); d != "b1\nb2\n" {
		t.Errorf("the document with unsaved changes was saved behind the user's back: disk has %q", d)
	}
	if b := e.buf("b.txt"); b != "B1\nb2\nunsaved\n" {
		t.Errorf("buffer b.txt = %q", b)
	}
	if !strings.Contains(got.Text, "warning: b.txt: it had unsaved changes in the editor before this edit, so it was left unsaved") {
		t.Errorf("the reply does not say b.txt's disk copy differs:\n%s", got.Text)
	}
	if strings.Contains(got.Text, "warning: a.txt") {
		t.Errorf("a warning for the saved document:\n%s", got.Text)
	}
}

func TestAnEditorThatRefusesTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) { e.refuse = true })
	got := e.tool("edit", map[string]any{"patch": patch})
	if !got.IsError || !strings.HasPrefix(got.Text, "NOT applied to a.txt, b.txt, c.txt: writing a.txt failed: the editor refused the edit (the user said no)") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if !strings.Contains(got.Text, "not tried: a.txt failed first") {
		t.Errorf("the reply does not say b and c were not tried:\n%s", got.Text)
	}
	for _, n := range []string{"a", "b", "c"} {
		want := fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n)
		if n != "c" && e.buf(n+".txt") != want {
			t.Errorf("buffer %s.txt changed: %q", n, e.buf(n+".txt"))
		}
		if e.disk(n+".txt") != want {
			t.Errorf("%s.txt changed on disk", n)
		}
	}
	if len(e.edits) != 1 {
		t.Errorf("%d applyEdit requests after the first was refused", len(e.edits))
	}
}

// Neovim answers applied: true for a stale buffer it skipped, and an
// editor may also apply it later: the reply says it is not confirmed
// (never applied, never NOT applied), and the rest is not sent.
func TestAnEditorThatSaysAppliedButDoesNotApply(t *testing.T) {
	e := newEditor(t, editorOpts{wait: 300 * time.Millisecond})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) { e.lie = true })
	got := e.tool("edit", map[string]any{"patch": patch})
	if !got.IsError || !strings.HasPrefix(got.Text, "not confirmed yet in a.txt; NOT applied to b.txt, c.txt") ||
		!strings.Contains(got.Text, "Read a.txt again before editing it again") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if d := e.disk("c.txt"); d != "c one\nc two\nc three\n" {
		t.Errorf("the closed file was written though the open ones did not land: %q", d)
	}
}

// A user typing between the check and the apply, on a line the edit does
// not replace, makes the version stale: the editor refuses (or skips) the
// edit, and eukhe makes it again over the typing and sends it again: it
// lands everywhere, and what the user typed stays (issue 22, item 1).
func TestAUserTypingBeforeTheApplyGetsTheEditRebased(t *testing.T) {
	for _, c := range []struct {
		name          string
		transactional bool
		typeOnCall    int // the applyEdit before which the user types in b.txt
	}{
		{"per-document, the second document stale", false, 2},
		{"one applyEdit checked whole", true, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			// per document: Neovim, which skips a stale edit and is known to
			e := newEditor(t, editorOpts{transactional: c.transactional, wait: 500 * time.Millisecond, name: map[bool]string{false: "Neovim", true: "fake"}[c.transactional]})
			patch := threeFiles(t, e)
			e.set(func(e *fakeEditor) {
				e.beforeApply = func(call int) {
					if call == c.typeOnCall {
						e.typeAt("b.txt", 0, 0, "typed ")
					}
				}
			})
			got := e.tool("edit", map[string]any{"patch": patch})
			if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") || strings.Contains(got.Text, "NOT") {
				t.Fatalf("reply:\n%s", got.Text)
			}
			if b := e.buf("b.txt"); b != "typed b one\nb TWO\nb three\n" {
				t.Errorf("buffer b.txt = %q: the user's typing and the edit must both be there", b)
			}
			tag := docs.DigestOf([]byte("typed b one\nb TWO\nb three\n")).Tag().String()
			if !strings.Contains(got.Text, "b.txt#"+tag) {
				t.Errorf("the reply does not give b.txt's tag as it landed (%s):\n%s", tag, got.Text)
			}
			// the line the user typed on is not one the agent saw; the
			// others are, under the tag the reply gave
			if r := e.tool("edit", map[string]any{"patch": "[b.txt#" + tag + "]\n@@ 1\n+agent one\n"}); !r.IsError || !strings.Contains(r.Text, "not seen") {
				t.Errorf("an edit of the line the user typed on, unseen by the agent, was not refused:\n%s", r.Text)
			}
			if r := e.tool("edit", map[string]any{"patch": "[b.txt#" + tag + "]\n@@ 3\n+b THREE\n"}); r.IsError {
				t.Errorf("an edit of a line the agent saw, under the reply's tag, was refused:\n%s", r.Text)
			}
			if !strings.Contains(got.Text, "Rebased: b.txt changed") || strings.Contains(got.Text, "Rebased: a.txt") {
				t.Errorf("the reply does not say b.txt (only) was typed in meanwhile:\n%s", got.Text)
			}
			if b := e.buf("a.txt"); b != "a one\na TWO\na three\n" {
				t.Errorf("buffer a.txt = %q", b)
			}
			if d := e.disk("c.txt"); d != "c one\nc TWO\nc three\n" {
				t.Errorf("c.txt on disk = %q", d)
			}
		})
	}
}

// Typing on the very line the edit replaces is a real conflict: that
// document does not land, what the user typed stays, the reply names the
// line, and the documents that landed before it are put back: the edit
// lands nowhere.
func TestAUserTypingOnTheEditsLineBeforeTheApplyMakesTheEditLandNowhere(t *testing.T) {
	for _, c := range []struct {
		name          string
		transactional bool
		typeOnCall    int
	}{
		{"per-document, the second document stale", false, 2},
		{"one applyEdit checked whole", true, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEditor(t, editorOpts{transactional: c.transactional, wait: 500 * time.Millisecond})
			patch := threeFiles(t, e)
			e.set(func(e *fakeEditor) {
				e.beforeApply = func(call int) {
					if call == c.typeOnCall {
						e.typeAt("b.txt", 1, 0, "typed ")
					}
				}
			})
			got := e.tool("edit", map[string]any{"patch": patch})
			if !got.IsError || !strings.HasPrefix(got.Text, "not confirmed yet in b.txt; NOT applied to a.txt, c.txt") && !strings.HasPrefix(got.Text, "NOT applied to a.txt, b.txt, c.txt") {
				t.Fatalf("reply:\n%s", got.Text)
			}
			if b := e.buf("b.txt"); b != "b one\ntyped b two\nb three\n" {
				t.Errorf("buffer b.txt = %q: the user's typing must stay, the edit must not land", b)
			}
			if b := e.buf("a.txt"); b != "a one\na two\na three\n" {
				t.Errorf("buffer a.txt = %q: it must be as before the edit", b)
			}
			if d := e.disk("c.txt"); d != "c one\nc two\nc three\n" {
				t.Errorf("c.txt on disk = %q", d)
			}
			if c.transactional && !strings.Contains(got.Text, "the user changed line 2 of b.txt") {
				t.Errorf("the reply does not name the line the user changed:\n%s", got.Text)
			}
		})
	}
}

// Neovim sends the didChange of an applied edit after its reply: landing
// waits for it.
func TestLandingWaitsForADidChangeAfterTheReply(t *testing.T) {
	e := newEditor(t, editorOpts{})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) { e.late = true })
	got := e.tool("edit", map[string]any{"patch": patch})
	if got.IsError || strings.Contains(got.Text, "NOT") {
		t.Fatalf("reply:\n%s", got.Text)
	}
}

// When the disk part fails after the open documents landed, they are put
// back in the editor.
func TestADiskFailurePutsTheOpenDocumentsBack(t *testing.T) {
	e := newEditor(t, editorOpts{})
	patch := threeFiles(t, e)
	e.srv.disk.Fault = func(step, path string) error {
		if step == "rename" {
			return fmt.Errorf("disk full")
		}
		return nil
	}
	got := e.tool("edit", map[string]any{"patch": patch})
	if !got.IsError || !strings.HasPrefix(got.Text, "NOT applied to a.txt, b.txt, c.txt: writing c.txt failed") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if !strings.Contains(got.Text, "a.txt, b.txt had landed and were restored") {
		t.Errorf("reply:\n%s", got.Text)
	}
	for _, n := range []string{"a", "b"} {
		if b := e.buf(n + ".txt"); b != fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n) {
			t.Errorf("buffer %s.txt = %q after the put-back", n, b)
		}
	}
}

func TestMovingAnOpenDocumentRenamesItWithoutOverwriting(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("old.txt", "x\ny\n")
	e.open("old.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "old.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[old.txt#%s]\n@@ 1\n+X\nMV sub/new.txt\n", tag)})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to sub/new.txt#") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("sub/new.txt"); b != "X\ny\n" {
		t.Errorf("buffer at the new name = %q", b)
	}
	if e.disk("old.txt") != "<missing>" {
		t.Error("the old name is still on disk")
	}
	we := e.edits[0]
	rn, ok := we.DocumentChanges[len(we.DocumentChanges)-1].(*lsproto.RenameFile)
	if !ok || rn.Options == nil || rn.Options.Overwrite == nil || *rn.Options.Overwrite || rn.Options.IgnoreIfExists != nil {
		t.Errorf("the move is not a RenameFile with overwrite false: %#v", we.DocumentChanges)
	}
	for _, we := range e.edits {
		for _, dc := range we.DocumentChanges {
			if _, ok := dc.(*lsproto.CreateFile); ok {
				t.Errorf("a CreateFile was sent")
			}
		}
	}
}

func TestAMoveOntoAnOpenBufferIsAConflict(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a\n")
	e.openText("b.txt", "unsaved new buffer\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\nMV b.txt\n", tag)})
	if !got.IsError || !strings.Contains(got.Text, "is open in the editor; a move never replaces a file") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if e.disk("a.txt") != "a\n" || len(e.edits) != 0 {
		t.Error("something was written")
	}
}

func TestAnEditorThatCannotRenameGetsAConflict(t *testing.T) {
	e := newEditor(t, editorOpts{noRename: true})
	e.put("a.txt", "a\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\nMV b.txt\n", tag)})
	if !got.IsError || !strings.Contains(got.Text, "cannot rename files") || len(e.edits) != 0 {
		t.Fatalf("reply:\n%s", got.Text)
	}
}

// The Store's own check: bytes that are not the buffer's are a conflict,
// and nothing reaches the editor.
func TestCommitChecksOpenDocumentsFirst(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a\n")
	e.put("c.txt", "c\n")
	e.openText("a.txt", "a typed\n")
	e.sync()
	res := e.srv.Store().Commit([]docs.Change{
		{Path: e.path("c.txt"), Old: []byte("c\n"), New: []byte("C\n")},
		{Path: e.path("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
	})
	if res.Conflict == nil || res.Conflict.Index != 1 || !strings.Contains(res.Conflict.Why, "changed in the editor") {
		t.Fatalf("conflict = %+v", res.Conflict)
	}
	if e.disk("c.txt") != "c\n" || len(e.edits) != 0 {
		t.Fatal("something was written before the check failed")
	}
}

// A write of a whole open document goes through the editor too.
func TestWriteOfAnOpenDocument(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true})
	e.put("a.txt", "one\ntwo\n")
	e.open("a.txt")
	e.tool("read", map[string]any{"path": "a.txt"})
	got := e.tool("write", map[string]any{"path": "a.txt", "content": "one\n2\n"})
	if got.IsError || e.buf("a.txt") != "one\n2\n" || e.disk("a.txt") != "one\n2\n" {
		t.Fatalf("reply %q; buffer %q; disk %q", got.Text, e.buf("a.txt"), e.disk("a.txt"))
	}
}

// Line endings and a last line without one go through the editor as the
// document core made them.
func TestCRLFAndAMissingFinalNewlineThroughTheEditor(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("crlf.txt", "one\r\ntwo\r\nthree\r\n")
	e.put("noeol.txt", "a\nb")
	e.open("crlf.txt")
	e.open("noeol.txt")
	tc := tagOf(t, e.tool("read", map[string]any{"path": "crlf.txt"}).Text)
	tn := tagOf(t, e.tool("read", map[string]any{"path": "noeol.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[crlf.txt#%s]\n@@ 2\n+TWO\n+2b\n[noeol.txt#%s]\n@@ $\n+c\n", tc, tn)})
	if got.IsError {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("crlf.txt"); b != "one\r\nTWO\r\n2b\r\nthree\r\n" {
		t.Errorf("crlf.txt buffer = %q", b)
	}
	r := e.tool("read", map[string]any{"path": "noeol.txt", "raw": true})
	if b := e.buf("noeol.txt"); !strings.HasPrefix(b, "a\nb\nc") || !strings.Contains(r.Text, "c") {
		t.Errorf("noeol.txt buffer = %q", b)
	}
}

// The server does not take the editor's word that it saved: the disk says.
func TestASaveTheEditorDidNotDoIsReported(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true})
	e.put("a.txt", "a\n")
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) { e.saveLies = true })
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\n@@ 1\n+A\n", tag)})
	if got.IsError || !strings.Contains(got.Text, "warning: a.txt: the editor did not save it") {
		t.Fatalf("reply:\n%s", got.Text)
	}
}

// The check under the lock is docs' engine's, over the buffer: a document
// the user changed on other lines since the edit was made takes the edit
// rebased over their text (at its version now), and their typing stays.
func TestAnOpenDocumentChangedElsewhereIsRebasedUnderTheLock(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a\nb\nc\n")
	e.open("a.txt")
	e.typeAt("a.txt", 2, 1, " typed")
	e.sync()
	cs := []docs.Change{{Path: e.path("a.txt"), Old: []byte("a\nb\nc\n"), New: []byte("A\nb\nc\n"),
		Rebase: func(cur []byte) ([]byte, error) {
			_, rest, _ := strings.Cut(string(cur), "\n")
			return []byte("A\n" + rest), nil
		}}}
	res := e.srv.Store().Commit(cs)
	if res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed || !res.Outcomes[0].Rebased {
		t.Fatalf("conflict %+v, outcome %+v", res.Conflict, res.Outcomes)
	}
	if b := e.buf("a.txt"); b != "A\nb\nc typed\n" {
		t.Errorf("buffer = %q", b)
	}
	if string(cs[0].Old) != "a\nb\nc typed\n" || string(cs[0].New) != "A\nb\nc typed\n" {
		t.Errorf("the change does not come back as rebased: %q → %q", cs[0].Old, cs[0].New)
	}
}
