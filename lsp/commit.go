package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/eukhe/eukhe/docs"
)

// planned is one change of a commit, checked.
type planned struct {
	i     int
	c     docs.Change
	open  bool
	v     view // the open document as checked
	dirty bool // it held unsaved changes: its text was not the disk's
}

// commit publishes a change set: first every check (nothing is written
// when one fails), then the open documents through the editor, then the
// other files through the disk writer. When a file does not land, the
// files that landed before it are put back. The caller holds commitMu.
func (s *Server) commit(cs []docs.Change, review bool) docs.Committed {
	res := docs.Committed{Outcomes: make([]docs.Outcome, len(cs))}
	ps, conflict := s.check(cs)
	if conflict != nil {
		res.Conflict = conflict
		return res
	}
	var open, closed []*planned
	for _, p := range ps {
		if p.open {
			open = append(open, p)
		} else {
			closed = append(closed, p)
		}
	}
	if !s.publishOpen(open, &res, len(closed) == 0) {
		return res // closed files stay Untried
	}
	if !s.publishClosed(closed, &res) {
		s.restore(open, &res)
		return res
	}
	s.save(open, &res)
	if review {
		s.reviewLanded(ps, &res)
	}
	return res
}

// check is the document core's check of every change before anything is
// written: an open document must hold exactly the bytes the edit was
// applied to, a closed file likewise on disk, a created file must not
// exist, a move's destination must be free (S8.1, S8.4).
func (s *Server) check(cs []docs.Change) ([]*planned, *docs.Conflict) {
	caps := s.capabilities()
	_, _, _, attached := s.editor()
	ps := make([]*planned, len(cs))
	for i, c := range cs {
		fail := func(format string, a ...any) ([]*planned, *docs.Conflict) {
			return nil, &docs.Conflict{Index: i, Why: fmt.Sprintf(format, a...)}
		}
		if c.Still != nil {
			if err := c.Still(); err != nil {
				return fail("%v", err)
			}
		}
		p := &planned{i: i, c: c}
		ps[i] = p
		p.v, p.open = s.openDoc(c.Path)
		if c.MoveTo != "" {
			if _, open := s.openDoc(c.MoveTo); open {
				return fail("MV destination %s is open in the editor; a move never replaces a file: pick a free name", c.MoveTo)
			}
			if _, err := os.Lstat(c.MoveTo); err == nil {
				return fail("MV destination %s exists; a move never replaces a file: pick a free name", c.MoveTo)
			}
		}
		if !p.open {
			if why := checkDisk(c); why != "" {
				return fail("%s", why)
			}
			continue
		}
		switch {
		case p.v.lost != nil:
			return fail("%v", p.v.lost)
		case c.Create:
			return fail("%s exists now (open in the editor); read it and edit it with its tag, or create another name", c.Path)
		case !bytes.Equal(p.v.data, c.Old):
			return fail("%s changed in the editor after the edit was made; read it again and redo the edit", c.Path)
		case !attached || !caps.applyEdit:
			return fail("%s is open in an editor that cannot apply edits (no workspace/applyEdit); close it there and retry", c.Path)
		case c.MoveTo != "" && !caps.rename:
			return fail("%s is open in an editor that cannot rename files; close it there and retry, or move it with bash", c.Path)
		}
		disk, err := os.ReadFile(p.v.path)
		p.dirty = err != nil || !bytes.Equal(disk, p.v.data)
	}
	return ps, nil
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

// checkDisk is the check of a file that is not open; the disk writer checks
// again under its lock, this keeps a conflict from landing the open ones
// first.
func checkDisk(c docs.Change) string {
	if c.Create {
		if _, err := os.Lstat(c.Path); err == nil {
			return fmt.Sprintf("%s exists now; read it and edit it with its tag, or create another name", c.Path)
		}
		return ""
	}
	b, err := os.ReadFile(c.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("%s is gone; read it again", c.Path)
	case err != nil:
		return fmt.Sprintf("%s cannot be read to check it: %v", c.Path, err)
	case !bytes.Equal(b, c.Old):
		return fmt.Sprintf("%s changed after the edit was made; read it again and redo the edit", c.Path)
	}
	return ""
}

// publishOpen sends the open documents' changes to the editor. When one
// does not land, those that landed are put back, and it says false. A
// document the editor took whose landing is not seen yet (the user typing
// over it) is Unconfirmed and followed (follow): when it shows, a lone
// document's edit is complete and reviewed; one of an edit that did not
// land whole is put back.
func (s *Server) publishOpen(ps []*planned, res *docs.Committed, alone bool) bool {
	if len(ps) == 0 {
		return true
	}
	es := make([]docEdit, len(ps))
	for k, p := range ps {
		es[k] = p.edit()
	}
	got := s.apply(es, false)
	ok := true
	var pending []int
	for k, p := range ps {
		switch {
		case got[k].landed:
			res.Outcomes[p.i] = docs.Outcome{Fate: docs.Landed}
		case got[k].unconfirmed:
			res.Outcomes[p.i] = docs.Outcome{Fate: docs.Unconfirmed, Err: got[k].err}
			pending = append(pending, k)
			ok = false
		case got[k].err != nil:
			res.Outcomes[p.i] = docs.Outcome{Fate: docs.Failed, Err: got[k].err}
			ok = false
		default:
			res.Outcomes[p.i] = docs.Outcome{Fate: docs.Untried}
			ok = false
		}
	}
	whole := alone && len(ps) == 1 && len(pending) == 1
	for _, k := range pending {
		s.follow(ps[k], es[k], got[k].watch, whole, res)
	}
	if !ok {
		s.restore(ps, res)
	}
	return ok
}

// follow keeps watching an unconfirmed document: when its edit shows, the
// edit is reviewed when it was the whole commit (whole), else put back,
// the rest of its commit not having landed.
func (s *Server) follow(p *planned, e docEdit, w *watch, whole bool, res *docs.Committed) {
	if w == nil {
		return
	}
	o := &res.Outcomes[p.i]
	if !whole {
		o.Err = fmt.Errorf("%v; the rest of the edit did not land, so if it shows, eukhe puts it back", o.Err)
	}
	s.ov.track(w, func() {
		s.commitMu.Lock()
		defer s.commitMu.Unlock()
		if whole {
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
		return errors.New("it changed in the editor on the edit's own lines after the edit landed")
	}
	a := s.apply([]docEdit{{uri: cur.uri, path: cur.path, version: cur.version, from: cur.data, to: back, moveTo: moveBack(e)}}, true)[0]
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

// publishClosed writes the files that are not open with the disk writer;
// it says false when one did not land (the writer put back its own).
func (s *Server) publishClosed(ps []*planned, res *docs.Committed) bool {
	if len(ps) == 0 {
		return true
	}
	cs := make([]docs.Change, len(ps))
	for k, p := range ps {
		cs[k] = p.c
	}
	sub := s.disk.Commit(cs)
	if sub.Conflict != nil {
		p := ps[sub.Conflict.Index]
		res.Outcomes[p.i] = docs.Outcome{Fate: docs.Failed, Err: errors.New(sub.Conflict.Why)}
		return false
	}
	ok := true
	for k, p := range ps {
		res.Outcomes[p.i] = sub.Outcomes[k]
		ok = ok && sub.Outcomes[k].Fate == docs.Landed
	}
	return ok
}

// restore puts back the open documents that landed, with the inverse edit
// through the same path; changes the user made since on other lines stay
// (rebaseBack). One the user changed on the edit's own lines is left as it
// is: its outcome stays Landed, with the reason it was not put back.
func (s *Server) restore(ps []*planned, res *docs.Committed) {
	var back []docEdit
	var who []*planned
	for _, p := range ps {
		if res.Outcomes[p.i].Fate != docs.Landed {
			continue
		}
		e := p.edit()
		cur, open := s.ov.get(e.target())
		switch {
		case !open:
			res.Outcomes[p.i].Err = fmt.Errorf("it is not open in the editor under %s any more", e.target())
			continue
		case cur.lost != nil:
			res.Outcomes[p.i].Err = cur.lost
			continue
		}
		to, ok := rebaseBack(e.from, e.to, cur.data)
		if !ok {
			res.Outcomes[p.i].Err = errors.New("it changed in the editor on the edit's own lines after the edit landed")
			continue
		}
		back = append(back, docEdit{uri: cur.uri, path: cur.path, version: cur.version, from: cur.data, to: to, moveTo: moveBack(e)})
		who = append(who, p)
	}
	if len(back) == 0 {
		return
	}
	for k, a := range s.apply(back, true) {
		switch {
		case a.landed:
			res.Outcomes[who[k].i] = docs.Outcome{Fate: docs.Restored}
		case a.unconfirmed:
			res.Outcomes[who[k].i].Err = fmt.Errorf("putting it back is not confirmed yet (%v): read it again", a.err)
		default:
			res.Outcomes[who[k].i].Err = fmt.Errorf("putting it back failed: %v", a.err)
		}
	}
}

func moveBack(e docEdit) string {
	if e.moveTo == "" {
		return ""
	}
	return e.path
}
