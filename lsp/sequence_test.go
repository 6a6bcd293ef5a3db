package lsp

import (
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"pgregory.net/rapid"
)

// didChange in version order: whatever order the notifications arrive in,
// and wherever the bound of a hold falls, the overlay's copy is the
// editor's text at some version, or the document is lost; never a third
// text.

// inOrder is a document's history: texts[i] is its text at version i+1
// (texts[0] at the didOpen, version 1), each notification a random
// incremental change of the text before it.
func inOrder(t *rapid.T, fake *fakeEditor) ([]string, []notification) {
	texts := []string{genText(t, "open")}
	n := rapid.IntRange(1, 8).Draw(t, "changes")
	var ns []notification
	for v := 2; v <= n+1; v++ {
		cur := texts[len(texts)-1]
		lines := strings.Count(cur, "\n") + 1
		l0 := rapid.IntRange(0, lines-1).Draw(t, "l0")
		l1 := rapid.IntRange(l0, lines-1).Draw(t, "l1")
		r := lsproto.Range{
			Start: lsproto.Position{Line: uint32(l0), Character: uint32(rapid.IntRange(0, 3).Draw(t, "c0"))},
			End:   lsproto.Position{Line: uint32(l1), Character: uint32(rapid.IntRange(0, 3).Draw(t, "c1"))},
		}
		from, to := fake.offset(cur, r.Start), fake.offset(cur, r.End)
		if to < from {
			r.End, to = r.Start, from
		}
		s := genText(t, "typed")
		texts = append(texts, cur[:from]+s+cur[to:])
		ns = append(ns, notification{version: int32(v), changes: []lsproto.TextDocumentContentChangeEvent{
			&lsproto.TextDocumentContentChangePartial{Range: r, Text: s},
		}})
	}
	return texts, ns
}

func TestLaw_DidChangeAppliesInVersionOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fake := &fakeEditor{opts: editorOpts{enc: "utf-16"}}
		texts, ns := inOrder(t, fake)
		arrival := rapid.Permutation(ns).Draw(t, "arrival")
		o := newOverlay()
		o.gapWait = time.Hour // the bound falls where the test says
		path := "/w/a.txt"
		u := uri.File(path)
		o.open(u, 1, texts[0])
		// settledText is the copy a read gets: a text of the history at
		// the document's version, or lost.
		check := func(when string) bool {
			o.mu.Lock()
			d := o.byPath[path]
			lost, held, v, got := d.seq.lost != "", d.seq.holding(), d.version, string(d.text.b)
			o.mu.Unlock()
			if lost || held {
				return lost
			}
			if got != texts[v-1] {
				t.Fatalf("%s: the copy at version %d is %q; the editor's text at that version is %q", when, v, got, texts[v-1])
			}
			return false
		}
		for k, n := range arrival {
			_ = o.change(u, n.version, n.changes)
			if rapid.Bool().Draw(t, "the bound falls") {
				o.mu.Lock()
				d := o.byPath[path]
				o.mu.Unlock()
				o.expire(d, d.seq.gen)
			}
			check("after arrival " + string(rune('0'+k)))
		}
		if lost := check("at the end"); !lost {
			v, _ := o.get(path)
			if want := texts[len(texts)-1]; string(v.data) != want || v.lost != nil {
				t.Fatalf("every change arrived, and the copy is %q (lost %v); the editor's text is %q", v.data, v.lost, want)
			}
		}
	})
}

// A client whose versions leave gaps (Neovim) in order: every notification
// applies at once; a version going back loses the document.
func TestIncreasingVersionsApplyAtOnceAndABackStepLoses(t *testing.T) {
	o := newOverlay()
	o.gapWait = time.Hour
	o.setOrder(increasing)
	u := uri.File("/w/a.txt")
	o.open(u, 0, "a\n")
	put := func(v int32, s string) error {
		return o.change(u, v, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: s}})
	}
	put(3, "b\n")
	put(7, "c\n")
	if v, _ := o.get("/w/a.txt"); string(v.data) != "c\n" || v.version != 7 {
		t.Fatalf("after versions 3 and 7: %q at %d", v.data, v.version)
	}
	if err := put(5, "d\n"); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("version 5 after 7: %v", err)
	}
	if v, _ := o.get("/w/a.txt"); v.lost == nil || v.data != nil {
		t.Fatalf("a back step served %q", v.data)
	}
	o.open(u, 9, "e\n")
	if v, _ := o.get("/w/a.txt"); string(v.data) != "e\n" {
		t.Fatalf("reopened: %q %v", v.data, v.lost)
	}
}

// A read while a notification is held waits for the missing one, and is
// served the text in order.
func TestAReadWaitsForTheMissingVersion(t *testing.T) {
	o := newOverlay()
	o.gapWait = time.Hour
	u := uri.File("/w/a.txt")
	o.open(u, 1, "a\n")
	whole := func(s string) []lsproto.TextDocumentContentChangeEvent {
		return []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: s}}
	}
	o.change(u, 3, whole("c\n"))
	got := make(chan view)
	go func() { v, _ := o.get("/w/a.txt"); got <- v }()
	select {
	case v := <-got:
		t.Fatalf("a read with version 2 missing was served %q at %d", v.data, v.version)
	case <-time.After(20 * time.Millisecond): // only lets the read start
	}
	o.change(u, 2, whole("b\n"))
	if v := <-got; string(v.data) != "c\n" || v.version != 3 {
		t.Fatalf("read %q at %d", v.data, v.version)
	}
}
