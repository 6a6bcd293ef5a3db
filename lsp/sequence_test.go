package lsp

import (
	"strings"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"pgregory.net/rapid"
)

// didChange in version order, whatever the client's name (sequence.go):
// whatever order the notifications arrive in, and wherever the bound of a
// hold falls, the overlay's copy is the editor's text at some version, or
// the document is unknown, never a third text once every notification
// came; the only exception, a bound falling early on a client never seen
// to reorder (its gap taken for its numbering), ends unknown as soon as
// the missing version comes. Repeats and skips of an in-order client, and
// full-text changes, never make a document unknown.

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

// randomChange is an incremental change of cur at random positions, and
// the text it makes.
func randomChange(t *rapid.T, fake *fakeEditor, cur string) (lsproto.TextDocumentContentChangeEvent, string) {
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
	return &lsproto.TextDocumentContentChangePartial{Range: r, Text: s}, cur[:from] + s + cur[to:]
}

// copyOf is a document's state in the overlay.
func copyOf(o *overlay, path string) (lost, held bool, version int32, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	d := o.byPath[path]
	return d.seq.lost != "", d.seq.holding(), d.version, string(d.text.b)
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
		provisional := false // a bound fell early on a client not seen to reorder
		check := func(when string) {
			lost, held, v, got := copyOf(o, path)
			if lost || held || provisional {
				return
			}
			if got != texts[v-1] {
				t.Fatalf("%s: the copy at version %d is %q; the editor's text at that version is %q", when, v, got, texts[v-1])
			}
		}
		for k, n := range arrival {
			_ = o.change(u, n.version, n.changes)
			if rapid.Bool().Draw(t, "the bound falls") {
				o.mu.Lock()
				d := o.byPath[path]
				early := d.seq.holding() && !o.num.reorders
				o.mu.Unlock()
				provisional = provisional || early
				o.expire(d, d.seq.gen)
			}
			check("after arrival " + string(rune('0'+k)))
		}
		if _, held, _, _ := copyOf(o, path); held {
			t.Fatalf("every change arrived, and some are still held")
		}
		v, _ := o.get(path)
		if want := texts[len(texts)-1]; v.lost == nil && string(v.data) != want {
			t.Fatalf("every change arrived, and the copy is %q; the editor's text is %q", v.data, want)
		}
		if v.lost == nil && !o.num.reorders && provisional {
			t.Fatalf("a bound fell early and the late version came, and the copy %q is known", v.data)
		}
	})
}

// An in-order client's versions may repeat and skip (Vim's and Neovim's
// changedtick, Eglot's count), each change incremental or the whole text:
// the copy is always the editor's text once no hold is under way, and the
// document is never unknown.
func TestLaw_RepeatsAndSkipsInOrderNeverLoseTheDocument(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fake := &fakeEditor{opts: editorOpts{enc: "utf-16"}}
		o := newOverlay()
		o.gapWait = time.Hour
		path := "/w/a.txt"
		u := uri.File(path)
		text := genText(t, "open")
		version := int32(rapid.IntRange(0, 5).Draw(t, "opened at"))
		o.open(u, version, text)
		for i, n := 0, rapid.IntRange(1, 12).Draw(t, "changes"); i < n; i++ {
			version += int32(rapid.SampledFrom([]int{0, 1, 1, 2, 7}).Draw(t, "step"))
			var c lsproto.TextDocumentContentChangeEvent
			if rapid.Bool().Draw(t, "whole") {
				text = genText(t, "whole")
				c = &lsproto.TextDocumentContentChangeWholeDocument{Text: text}
			} else {
				c, text = randomChange(t, fake, text)
			}
			if err := o.change(u, version, []lsproto.TextDocumentContentChangeEvent{c}); err != nil {
				t.Fatalf("change %d at version %d: %v", i, version, err)
			}
			if rapid.Bool().Draw(t, "the bound falls") {
				o.mu.Lock()
				d := o.byPath[path]
				o.mu.Unlock()
				o.expire(d, d.seq.gen)
			}
			lost, held, v, got := copyOf(o, path)
			if lost {
				t.Fatalf("change %d at version %d made the document unknown", i, version)
			}
			if !held && (got != text || v != version) {
				t.Fatalf("after change %d: the copy is %q at %d; the editor has %q at %d", i, got, v, text, version)
			}
		}
		o.mu.Lock()
		d := o.byPath[path]
		o.mu.Unlock()
		o.expire(d, d.seq.gen) // the last gap is the client's numbering
		if v, _ := o.get(path); v.lost != nil || string(v.data) != text {
			t.Fatalf("at the end the copy is %q (%v); the editor has %q", v.data, v.lost, text)
		}
	})
}

// A full-text change is the whole truth whatever its version: after any
// notifications at all (out of order, repeated, lost), it makes the
// document known with its text, then the versions held above it that
// follow.
func TestLaw_AFullTextChangeResetsTheCopy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fake := &fakeEditor{opts: editorOpts{enc: "utf-16"}}
		o := newOverlay()
		o.gapWait = time.Hour
		path := "/w/a.txt"
		u := uri.File(path)
		text := genText(t, "open")
		o.open(u, 1, text)
		for i, n := 0, rapid.IntRange(0, 10).Draw(t, "noise"); i < n; i++ {
			var c lsproto.TextDocumentContentChangeEvent
			c, text = randomChange(t, fake, text)
			_ = o.change(u, int32(rapid.IntRange(0, 12).Draw(t, "version")), []lsproto.TextDocumentContentChangeEvent{c})
		}
		whole := genText(t, "whole")
		v := int32(rapid.IntRange(0, 12).Draw(t, "full at"))
		_ = o.change(u, v, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: whole}})
		lost, held, got, copied := copyOf(o, path)
		if lost {
			t.Fatalf("a full-text change at %d left the document unknown", v)
		}
		o.mu.Lock()
		top := o.byPath[path].seq.top()
		o.mu.Unlock()
		if held && top <= v {
			t.Fatalf("a full-text change at %d left version %d held", v, top)
		}
		// (a version held above it may follow it at once)
		if !held && (got < v || got == v && copied != whole) {
			t.Fatalf("after a full-text change at %d the copy is %q at %d", v, copied, got)
		}
	})
}

// A client that leaves gaps in order (Neovim: didOpen at 0, its first
// didChange at 5): the first gap is held for the bound, then applies, and
// later ones apply at once; a version that goes back makes the document
// unknown, and a full-text change or a didOpen makes it known again.
func TestGapsOfAnInOrderClientApplyAndABackStepIsUnknownUntilResynced(t *testing.T) {
	o := newOverlay()
	o.gapWait = 20 * time.Millisecond
	u := uri.File("/w/a.txt")
	o.open(u, 0, "a\n")
	put := func(v int32, s string) error {
		r := lsproto.Range{Start: lsproto.Position{Line: 0}, End: lsproto.Position{Line: 1}}
		return o.change(u, v, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangePartial{Range: r, Text: s}})
	}
	put(5, "b\n")
	if v, _ := o.get("/w/a.txt"); string(v.data) != "b\n" || v.version != 5 || v.lost != nil {
		t.Fatalf("after a gap to 5: %q at %d (%v)", v.data, v.version, v.lost)
	}
	put(9, "c\n")
	if lost, held, v, text := copyOf(o, "/w/a.txt"); lost || held || text != "c\n" || v != 9 {
		t.Fatalf("a later gap is not applied at once: %q at %d (held %v, unknown %v)", text, v, held, lost)
	}
	if !o.ordered() {
		t.Fatal("the client is not known to tell in order with gaps")
	}
	if err := put(7, "d\n"); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("version 7 after 9: %v", err)
	}
	v, _ := o.get("/w/a.txt")
	if v.lost == nil || v.data != nil || !strings.Contains(v.lost.Error(), ":e!") || !strings.Contains(v.lost.Error(), "close it and open it again") {
		t.Fatalf("a back step served %q, or says no way back: %v", v.data, v.lost)
	}
	o.change(u, 9, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: "e\n"}})
	if v, _ := o.get("/w/a.txt"); string(v.data) != "e\n" || v.lost != nil {
		t.Fatalf("after a full-text change: %q %v", v.data, v.lost)
	}
	put(8, "f\n")
	o.open(u, 12, "g\n")
	if v, _ := o.get("/w/a.txt"); string(v.data) != "g\n" || v.lost != nil {
		t.Fatalf("reopened: %q %v", v.data, v.lost)
	}
}

// Vim's yegappan/lsp, replayed: clientInfo "Vim", versions by changedtick
// that repeat and skip, the whole text each time. Every read is the
// buffer.
func TestVimsRepeatingChangedtickKeepsTheDocument(t *testing.T) {
	e := newEditor(t, editorOpts{name: "Vim"})
	e.put("a.txt", "one\n")
	if err := e.server.DidOpen(e.ctx(), &lsproto.DidOpenTextDocumentParams{TextDocument: lsproto.TextDocumentItem{
		URI: uri.File(e.path("a.txt")), LanguageID: "text", Version: 3, Text: "one\n"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    int32
		text string
	}{{5, "one\ntwo\n"}, {5, "one\ntwo\nthree\n"}, {9, "zero\none\ntwo\nthree\n"}, {9, "zero\n"}, {10, "zero\nten\n"}} {
		if err := e.server.DidChange(e.ctx(), &lsproto.DidChangeTextDocumentParams{
			TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: uri.File(e.path("a.txt"))}, Version: c.v},
			ContentChanges: []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: c.text}},
		}); err != nil {
			t.Fatalf("version %d: %v", c.v, err)
		}
		if got := e.tool("read", map[string]any{"path": "a.txt", "raw": true}); got.IsError || !strings.HasSuffix(got.Text, "\n"+c.text) {
			t.Fatalf("read after version %d:\n%s", c.v, got.Text)
		}
	}
}

// A read while a notification is held waits for the missing one, and is
// served the text in order.
func TestAReadWaitsForTheMissingVersion(t *testing.T) {
	o := newOverlay()
	o.gapWait = time.Hour
	u := uri.File("/w/a.txt")
	o.open(u, 1, "a\n")
	whole := func(s string) []lsproto.TextDocumentContentChangeEvent { // the first line replaced
		r := lsproto.Range{Start: lsproto.Position{Line: 0}, End: lsproto.Position{Line: 1}}
		return []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangePartial{Range: r, Text: s}}
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
