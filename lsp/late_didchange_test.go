package lsp

import (
	"strings"
	"testing"
	"time"
)

// vim-lsp, replayed: it answers applied: true at once and sends the
// didChange of the edit 2.5 s later, past the landing wait. An editor that
// answered applied: true applied the edit: the reply says "not confirmed
// yet", the edit is followed, and when its didChange comes it is reviewed,
// never taken back by an inverse edit (issue 22, item 6).
func TestALateDidChangeNeverUndoesAnEditTheEditorApplied(t *testing.T) {
	for _, c := range []struct {
		name          string
		transactional bool
	}{
		{"one applyEdit per document", false},
		{"one applyEdit checked whole", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEditor(t, editorOpts{transactional: c.transactional, reviews: true, wait: 100 * time.Millisecond})
			e.put("a.txt", "a one\na two\n")
			e.put("b.txt", "b one\nb two\n")
			e.open("a.txt")
			e.open("b.txt")
			ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
			tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
			late := "a.txt"
			if c.transactional {
				// a.txt tells at once, b.txt late: the landed a.txt is not
				// put back either, the editor having applied both.
				late = "b.txt"
			}
			e.set(func(e *fakeEditor) { e.tellLate = map[string]time.Duration{e.path(late): 400 * time.Millisecond} })
			got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 1\n+A ONE\n[b.txt#" + tb + "]\n@@ 1\n+B ONE\n"})
			if !strings.Contains(got.Text, "not confirmed yet in "+late) || strings.Contains(got.Text, "puts it back") || strings.Contains(got.Text, "was restored") {
				t.Fatalf("reply:\n%s", got.Text)
			}
			if c.transactional && !strings.Contains(got.Text, "a.txt was not restored") {
				t.Errorf("the reply does not say a.txt stays:\n%s", got.Text)
			}
			e.mu.Lock()
			calls := e.applyCalls
			e.mu.Unlock()
			waitFor(t, "the late edit reviewed", func() bool {
				r := e.lastReview()
				return len(r.Hunks) > 0 && strings.HasSuffix(r.Hunks[0].URI, late)
			})
			time.Sleep(200 * time.Millisecond) // an inverse edit would be sent by now
			e.mu.Lock()
			after := e.applyCalls
			e.mu.Unlock()
			if after != calls {
				t.Fatalf("%d more applyEdit after the late didChange: an edit the editor applied was taken back", after-calls)
			}
			if b := e.buf("a.txt"); b != "A ONE\na two\n" {
				t.Errorf("buffer a.txt = %q", b)
			}
			if b := e.buf("b.txt"); c.transactional && b != "B ONE\nb two\n" {
				t.Errorf("buffer b.txt = %q", b)
			}
			if got := e.tool("read", map[string]any{"path": late, "raw": true}); got.IsError || !strings.Contains(got.Text, strings.ToUpper(late[:1])+" ONE\n") {
				t.Errorf("read after the late didChange:\n%s", got.Text)
			}
		})
	}
}
