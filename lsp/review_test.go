package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// Review: after a landed edit the client hears its hunks; keep or undo a
// hunk, a file or the whole edit; an undo is the inverse edit through the
// same path, refused when the text changed since.

// edited makes an edit of an open a.txt (two hunks) and a closed c.txt,
// and gives its reply.
func edited(t *testing.T, e *fakeEditor) string {
	t.Helper()
	e.put("a.txt", "1\n2\n3\n4\n5\n")
	e.put("c.txt", "c1\nc2\n")
	e.open("a.txt")
	ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	tc := tagOf(t, e.tool("read", map[string]any{"path": "c.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\n@@ 2\n+two\n@@ 4\n+four\n+FOUR\n[c.txt#%s]\n@@ 1\n+C1\n", ta, tc)})
	if got.IsError {
		t.Fatalf("edit: %s", got.Text)
	}
	return got.Text
}

func reviewed(t *testing.T, e *fakeEditor) protocol.ReviewParams {
	t.Helper()
	edited(t, e)
	return e.lastReview()
}

func TestReviewTellsTheHunksOfALandedEdit(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	if len(r.Hunks) != 3 || r.EditID == "" {
		t.Fatalf("review: %+v", r)
	}
	a := string(uri.File(e.path("a.txt")))
	h := r.Hunks[1]
	if h.URI != a || h.Hunk != 1 || h.Before != "4\n" || h.After != "four\nFOUR\n" ||
		h.Range != (protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 5}}) {
		t.Errorf("hunk 1 of a.txt: %+v", h)
	}
	if c := r.Hunks[2]; c.URI != string(uri.File(e.path("c.txt"))) || c.Before != "c1\n" || c.After != "C1\n" {
		t.Errorf("the closed file's hunk: %+v", c)
	}
}

func TestUndoOneHunkThenTheRestOfTheFile(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	a := string(uri.File(e.path("a.txt")))
	one := 1
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: a, Hunk: &one, Decision: protocol.DecisionUndo})
	if !res.Applied || e.buf("a.txt") != "1\ntwo\n3\n4\n5\n" {
		t.Fatalf("undo of hunk 1: %+v; buffer %q", res, e.buf("a.txt"))
	}
	if !strings.HasPrefix(res.Message, "undo: Applied to a.txt#") {
		t.Errorf("message: %q", res.Message)
	}
	// The agent sees undone text as changed: its tag moves.
	if tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text); tag != docs.DigestOf([]byte("1\ntwo\n3\n4\n5\n")).Tag().String() {
		t.Errorf("read after the undo gives tag %s", tag)
	}
	res = e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: a, Decision: protocol.DecisionUndo})
	if !res.Applied || e.buf("a.txt") != "1\n2\n3\n4\n5\n" {
		t.Fatalf("undo of the rest of a.txt: %+v; buffer %q", res, e.buf("a.txt"))
	}
	// The closed file is still under review; undo goes through the disk.
	res = e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo})
	if !res.Applied || e.disk("c.txt") != "c1\nc2\n" {
		t.Fatalf("undo of the closed file: %+v; disk %q", res, e.disk("c.txt"))
	}
	if res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo}); res.Applied {
		t.Errorf("an edit with nothing left under review was undone again: %+v", res)
	}
}

// Undo follows the hunks under typing (issue 22, item 2): the user's
// typing elsewhere stays and the hunk goes back where it stands now; a
// hunk whose own lines the user changed is refused, the others undo.
func TestUndoFollowsTheHunksUnderTyping(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	e.typeAt("a.txt", 0, 0, "typed ") // line 1, above both hunks
	e.typeAt("a.txt", 2, 0, "more ")  // line 3, between them
	a := string(uri.File(e.path("a.txt")))
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: a, Decision: protocol.DecisionUndo})
	if !res.Applied || !strings.HasPrefix(res.Message, "undo: Applied to a.txt#") {
		t.Fatalf("undo over the user's typing elsewhere: %+v", res)
	}
	if b := e.buf("a.txt"); b != "typed 1\n2\nmore 3\n4\n5\n" {
		t.Errorf("buffer = %q", b)
	}
}

func TestUndoIsRefusedForAHunkWhoseLinesTheUserChanged(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	e.typeAt("a.txt", 1, 0, "typed ") // line 2: hunk 0's own line
	a := string(uri.File(e.path("a.txt")))
	zero, one := 0, 1
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: a, Hunk: &zero, Decision: protocol.DecisionUndo})
	if res.Applied || !strings.Contains(res.Message, "someone typed on them") {
		t.Fatalf("undo of the hunk the user typed on: %+v", res)
	}
	if b := e.buf("a.txt"); b != "1\ntyped two\n3\nfour\nFOUR\n5\n" {
		t.Errorf("buffer after the refusal = %q", b)
	}
	res = e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, URI: a, Hunk: &one, Decision: protocol.DecisionUndo})
	if !res.Applied {
		t.Fatalf("undo of the other hunk: %+v", res)
	}
	if b := e.buf("a.txt"); b != "1\ntyped two\n3\n4\n5\n" {
		t.Errorf("buffer after the other hunk's undo = %q", b)
	}
}

func TestKeepTakesHunksOutOfReview(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	r := reviewed(t, e)
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionKeep})
	if !res.Applied || !strings.Contains(res.Message, "kept") {
		t.Fatalf("keep: %+v", res)
	}
	if res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo}); res.Applied || !strings.Contains(res.Message, "not under review") {
		t.Fatalf("undo after keep: %+v", res)
	}
	if res := e.decide(protocol.ReviewDecisionParams{EditID: "e1", Decision: "maybe"}); res.Applied || !strings.Contains(res.Message, "neither") {
		t.Fatalf("a bad decision: %+v", res)
	}
}

func TestNoReviewForAClientWithoutIt(t *testing.T) {
	e := newEditor(t, editorOpts{})
	edited(t, e)
	e.tool("read", map[string]any{"path": "a.txt"}) // a round trip after the edit
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.reviewed) != 0 {
		t.Fatal("eukhe/review sent to a client that does not implement it")
	}
}

// The undo of a created file is refused with what to do instead.
func TestUndoOfACreatedFileIsRefused(t *testing.T) {
	e := newEditor(t, editorOpts{reviews: true})
	if got := e.tool("edit", map[string]any{"patch": "[new.txt]\n+hello\n"}); got.IsError {
		t.Fatal(got.Text)
	}
	r := e.lastReview()
	res := e.decide(protocol.ReviewDecisionParams{EditID: r.EditID, Decision: protocol.DecisionUndo})
	if res.Applied || !strings.Contains(res.Message, "created by the edit") || e.disk("new.txt") != "hello\n" {
		t.Fatalf("undo of a created file: %+v", res)
	}
}
