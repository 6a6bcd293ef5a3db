package lsp

import (
	"fmt"
	"path/filepath"

	"github.com/eukhe/eukhe/docs"
)

// planned is one change of a commit as save and review take it: its index
// in the outcomes, and for an open document the document as checked.
type planned struct {
	i     int
	c     docs.Change
	open  bool
	v     view // the open document as checked
	dirty bool // it held unsaved changes: its text was not the disk's
	// rebased: the edit was made again over the user's typing before it
	// landed (rebase.go): its text holds keystrokes of the user's
	rebased bool
	// real is the real path the commit checked for it (the move's
	// destination for a move): a save must land there (save.go).
	real string
	// file is the file that was under real as the commit checked it (for
	// a move, the file moved there): a save must write that file.
	file fileID
}

// commit publishes a change set through the commit engine (docs.CommitVia)
// with the editor's publisher (publisher.go): the engine checks every
// change under the lock (nothing is written when one fails), publishes in
// order and puts back what landed when a later change does not land. The
// open documents go first, so that the editor, which may refuse an edit
// or not show it yet, is asked before any file on disk changes. The
// intent journal lists the commit's disk part (the editor's buffers are
// no files a later process could finish): when eukhe lsp dies between
// the editor's part and the disk's, the next start finishes the disk's,
// which then matches what the editor was given. The caller holds
// commitMu.
func (s *Server) commit(cs []docs.Change, review, closedOnly bool) docs.Committed {
	order := s.openFirst(cs)
	sorted := make([]docs.Change, len(cs))
	journal := docs.JournalAt{Dir: s.disk.Journal, Root: s.disk.Root, Judge: s.disk.Judge}
	for k, i := range order {
		sorted[k] = cs[i]
	}
	ep := s.newEditorPub()
	ep.closedOnly = closedOnly
	got := docs.CommitVia(ep, journal, s.disk.Fault, sorted)
	res := docs.Committed{Outcomes: make([]docs.Outcome, len(cs)), Recovered: got.Recovered}
	if got.Conflict != nil {
		res.Conflict = &docs.Conflict{Index: order[got.Conflict.Index], Why: got.Conflict.Why}
		return res
	}
	ps := make([]*planned, len(cs))
	for k, i := range order {
		cs[i].Old, cs[i].New = sorted[k].Old, sorted[k].New // as rebased
		res.Outcomes[i] = got.Outcomes[k]
		ps[i] = &planned{i: i, c: cs[i]}
		for p, d := range ep.open {
			if p.Path == cs[i].Path {
				ps[i].open, ps[i].v, ps[i].dirty = true, d.v, d.dirty
				if d.rebased {
					// made again over the user's typing (rebase.go): what
					// landed is d.e's change, which review places and an
					// undo names (TestARebasedEditsReviewAndUndoKeepTheTyping)
					cs[i].Old, cs[i].New = d.e.from, d.e.to
					ps[i].c.Old, ps[i].c.New = d.e.from, d.e.to
					ps[i].rebased = true
				}
				// One the editor took with an earlier one and that is not
				// shown yet is not confirmed, never "not tried".
				if d.done && res.Outcomes[i].Fate == docs.Untried && d.out.Fate == docs.Unconfirmed {
					res.Outcomes[i] = d.out
				}
			}
		}
	}
	if review {
		s.reviewLanded(ps, &res)
	}
	return res
}

// openFirst is the order the changes are published in: those of open
// documents first, each group in the change set's order.
func (s *Server) openFirst(cs []docs.Change) []int {
	var open, closed []int
	for i, c := range cs {
		if _, ok := s.openDoc(c.Path); ok {
			open = append(open, i)
		} else {
			closed = append(closed, i)
		}
	}
	return append(open, closed...)
}

// touchesOpen tells whether a change set names a document open in the
// editor (a path or a move's destination).
func (s *Server) touchesOpen(cs []docs.Change) bool {
	for _, c := range cs {
		for _, p := range []string{c.Path, c.MoveTo} {
			if _, open := s.openDoc(p); p != "" && open {
				return true
			}
		}
	}
	return false
}

// openDoc finds the open document of a path: by the path, else by the
// path with its symlinks resolved.
func (s *Server) openDoc(path string) (view, bool) {
	path = filepath.Clean(path)
	if v, ok := s.ov.get(path); ok {
		return v, true
	}
	if r, err := filepath.EvalSymlinks(path); err == nil && r != path {
		return s.ov.get(r)
	}
	return view{}, false
}

// follow keeps watching an unconfirmed document: when its edit shows, the
// edit is reviewed when it stays (keep: it was the whole commit, or the
// editor answered that it applied it), else put back, the rest of its
// commit not having landed.
func (s *Server) follow(p *planned, e docEdit, w *watch, keep bool) {
	s.ov.track(w, func() {
		s.commitMu.Lock()
		defer s.commitMu.Unlock()
		if keep {
			s.logf("the edit of %s, not confirmed when the agent was answered, landed", e.target())
			landed := docs.Committed{Outcomes: make([]docs.Outcome, p.i+1)}
			landed.Outcomes[p.i] = docs.Outcome{Fate: docs.Landed}
			s.reviewLanded([]*planned{p}, &landed)
			return
		}
		if err := s.putBack(e); err != nil {
			s.logf("the edit of %s landed after its commit was given up, and putting it back failed: %v", e.target(), err)
		}
	})
}

// putBack takes a landed edit out of its document again, the user's other
// changes kept (rebaseBack), verified like any edit.
func (s *Server) putBack(e docEdit) error {
	cur, open := s.ov.get(e.target())
	switch {
	case !open:
		return fmt.Errorf("it is not open in the editor under %s any more", e.target())
	case cur.lost != nil:
		return cur.lost
	}
	back, ok := rebaseBack(e.from, e.to, cur.data)
	if !ok {
		return fmt.Errorf("it changed in the editor on the edit's own lines after the edit landed")
	}
	a := s.apply([]docEdit{{uri: cur.uri, path: cur.path, version: cur.version, from: cur.data, to: back, moveTo: moveBack(e), back: true}}, true)[0]
	if !a.landed {
		return a.err
	}
	return nil
}

// edit is a planned open document's change for the editor.
func (p *planned) edit() docEdit {
	to := p.c.New
	if to == nil {
		to = p.c.Old
	}
	return docEdit{uri: p.v.uri, path: p.v.path, version: p.v.version, from: p.c.Old, to: to, moveTo: p.c.MoveTo}
}

func moveBack(e docEdit) string {
	if e.moveTo == "" {
		return ""
	}
	return e.path
}
