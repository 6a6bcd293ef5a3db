package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/eukhe/eukhe/docs"
)

// editorPub is the editor's docs.Publisher (DESIGN.md §10): a change to a
// document open in the editor is published as a versioned workspace edit
// and verified (apply.go, landing.go); any other change goes to the disk
// writer. The rules — the check under the lock, the order, the restore
// after a failure — are the commit engine's (docs.CommitVia); this type
// only says how an open document is checked for the editor's own limits,
// read, published and put back. One editorPub serves one commit.
type editorPub struct {
	s        *Server
	disk     *docs.Disk
	caps     clientCaps
	attached bool

	// closedOnly: the commit runs without commitMu, for files none of
	// which was open in the editor; one opened since is refused.
	closedOnly bool

	open   map[*docs.Pending]*openDoc // the changes to open documents, from Check
	byReal map[string]*openDoc        // the same, by the resolved path the engine reads
	ps     []*docs.Pending            // the commit's changes, as prepared
	back   []*docs.Pending            // the landed ones being put back
}

// openDoc is one change to an open document.
type openDoc struct {
	v      view    // the document as checked
	dirty  bool    // it held unsaved changes: its text was not the disk's
	e      docEdit // what goes to the editor, from Prepare
	file   fileID  // the file under its real path as checked
	done   bool    // sent (alone or with others): out is its outcome
	out    docs.Outcome
	undone bool // its put-back was sent: undo is its outcome
	undo   docs.Outcome
	// kept: the editor applied it with the rest of one applyEdit it
	// answered applied: true, a document of which is only not confirmed
	// yet: it is not put back.
	kept bool
	// rebased: e was made again over the user's typing before it landed
	// (rebase.go): the review shows e's change, not the commit's.
	rebased bool
}

func (s *Server) newEditorPub() *editorPub {
	_, _, _, attached := s.editor()
	return &editorPub{s: s, disk: s.disk, caps: s.capabilities(), attached: attached, open: map[*docs.Pending]*openDoc{}, byReal: map[string]*openDoc{}}
}

// PrepareEarly prepares nothing early: an open document's edit is made
// by the editor, and a closed file's temp file is written by Prepare (the
// engine's work over the disk, without its early start).
func (ep *editorPub) PrepareEarly([]*docs.Pending) {}

// Unchanged vouches for no file: the engine reads each one for its check
// (an open document's text is the editor's, which a disk stamp says
// nothing of).
func (ep *editorPub) Unchanged(string, docs.Stamp) (docs.Stat, bool) { return docs.Stat{}, false }

// Check refuses what the editor cannot do: a move onto a document open
// there, an open document whose text is not known, or one the editor
// cannot apply edits to (or rename, for a move). It records the open
// documents; the byte check that follows is the engine's, over their text.
func (ep *editorPub) Check(p *docs.Pending) string {
	if p.MoveTo != "" {
		if _, open := ep.s.openDoc(p.MoveTo); open {
			return fmt.Sprintf("MV destination %s is open in the editor; a move never replaces a file: pick a free name", p.MoveTo)
		}
	}
	v, open := ep.s.openDoc(p.Path)
	if !open {
		return ""
	}
	if ep.closedOnly {
		return fmt.Sprintf("%s was opened in the editor while the edit was made; nothing was written: retry the same edit", p.Path)
	}
	// The edit is judged by the document's name as it resolves now
	// (realpath.go), not by the real path recorded at didOpen.
	judged := ep.s.ov.judge(v)
	switch {
	case v.lost != nil:
		return v.lost.Error()
	case judged != nil:
		return judged.Error()
	case v.real != p.Real:
		return fmt.Sprintf("%s resolves to %s, but the document open in the editor under that name is %s: close and reopen it in the editor, then retry", p.Path, p.Real, v.real)
	case p.Create:
		return fmt.Sprintf("%s exists now (open in the editor); read it and edit it with its tag, or create another name", p.Path)
	case !ep.attached || !ep.caps.applyEdit:
		return fmt.Sprintf("%s is open in an editor that cannot apply edits (no workspace/applyEdit); close it there and retry", p.Path)
	case p.MoveTo != "" && !ep.caps.rename:
		return fmt.Sprintf("%s is open in an editor that cannot rename files; close it there and retry, or move it with bash", p.Path)
	}
	disk, err := os.ReadFile(v.path)
	d := &openDoc{v: v, dirty: err != nil || !bytes.Equal(disk, v.data), file: fileIDOf(p.Real)}
	ep.open[p], ep.byReal[p.Real] = d, d
	p.Buffer = true // the intent journal lists the commit's disk part only
	return ""
}

// Lstat tells of the disk's file, else of an open document not saved yet.
func (ep *editorPub) Lstat(path string) (docs.Stat, error) {
	st, err := ep.disk.Lstat(path)
	if err != nil || st.Exists {
		return st, err
	}
	if _, open := ep.s.openDoc(path); open {
		return (&store{ep.s}).openStat(path, 0), nil
	}
	return st, nil
}

// Current is an open document's text as checked, else the disk's bytes.
func (ep *editorPub) Current(path string) (docs.Snapshot, error) {
	if d := ep.byReal[path]; d != nil {
		return docs.Snapshot{Data: d.v.data, Stat: (&store{ep.s}).openStat(d.v.path, len(d.v.data)), In: "in the editor"}, nil
	}
	return ep.disk.Current(path)
}

// Lock takes the disk writer's locks of the files not open in the
// editor; the editor's documents are under commitMu, which the caller
// holds. (A directory lock held while the editor is slow to answer would
// stop a closed file's edit beside it, which needs no editor.)
func (ep *editorPub) Lock(paths []string) (func(), int, error) {
	var onDisk []string
	var at []int
	for i, p := range paths {
		if _, open := ep.s.openDoc(p); open && !ep.closedOnly {
			continue
		}
		onDisk, at = append(onDisk, p), append(at, i)
	}
	unlock, failed, err := ep.disk.Lock(onDisk)
	if err != nil {
		return unlock, at[failed], err
	}
	return unlock, 0, nil
}

// Prepare makes the editor's edits (nothing is sent) and lets the disk
// prepare its files. With back, the put-back of an open document is made
// when it is published, over its text then.
func (ep *editorPub) Prepare(ps []*docs.Pending, back bool) (int, error) {
	if back {
		ep.back = ps
	} else {
		ep.ps = ps
		for _, p := range ps {
			if d := ep.open[p]; d != nil {
				to := p.New
				if to == nil {
					to = p.Old
				}
				d.e = docEdit{uri: d.v.uri, path: d.v.path, version: d.v.version, from: p.Old, to: to, moveTo: p.MoveTo}
			}
		}
	}
	var onDisk []*docs.Pending
	var at []int
	for i, p := range ps {
		if ep.open[p] == nil {
			onDisk, at = append(onDisk, p), append(at, i)
		}
	}
	if len(onDisk) == 0 {
		return 0, nil
	}
	i, err := ep.disk.Prepare(onDisk, back)
	if err != nil {
		return at[i], err
	}
	return 0, nil
}

// Publish sends an open document's edit, with the open documents that
// follow it in the commit (one applyEdit for a client that checks every
// version, else one each: apply.go), and tells what became of it; the
// others' outcomes are kept for their own Publish. A closed file is the
// disk's.
func (ep *editorPub) Publish(p *docs.Pending, back bool) docs.Outcome {
	d := ep.open[p]
	if d == nil {
		return ep.disk.Publish(p, back)
	}
	if back {
		if !d.undone {
			ep.putBack()
		}
		return d.undo
	}
	if !d.done {
		ep.send(slices.Index(ep.ps, p))
	}
	return d.out
}

// send publishes the run of open documents from ps[from] on.
func (ep *editorPub) send(from int) {
	var run []*docs.Pending
	for _, p := range ep.ps[from:] {
		if ep.open[p] == nil {
			break
		}
		run = append(run, p)
	}
	es := make([]docEdit, len(run))
	for k, p := range run {
		es[k] = ep.open[p].e
	}
	got := ep.s.apply(es, false)
	for k, p := range run {
		if d := ep.open[p]; !bytes.Equal(d.e.from, es[k].from) {
			d.e, d.rebased = es[k], true // made again over the user's typing (rebase.go)
		}
	}
	whole := len(ep.ps) == 1
	// A client that checks every version applies one applyEdit whole: when
	// it answered applied: true, a document of it not seen yet does not
	// make eukhe take back the others.
	if ep.caps.checksEveryVersion() {
		for k := range run {
			if got[k].unconfirmed && got[k].editorApplied {
				for j, p := range run {
					if got[j].landed {
						ep.open[p].kept = true
					}
				}
				break
			}
		}
	}
	for k, p := range run {
		d := ep.open[p]
		d.done = true
		switch a := got[k]; {
		case a.landed:
			// made again over the user's typing: the reply says so
			d.out = docs.Outcome{Fate: docs.Landed, Rebased: d.rebased}
		case a.unconfirmed:
			d.out = docs.Outcome{Fate: docs.Unconfirmed, Err: a.err}
			if a.watch != nil {
				switch {
				case !whole && a.editorApplied:
					// The editor said it applied it: never taken back
					// (its didChange may come seconds later); when it
					// shows, it is reviewed like a whole edit.
					d.out.Err = fmt.Errorf("%v; the editor answered that it applied it, so eukhe never takes it back", a.err)
				case !whole:
					d.out.Err = fmt.Errorf("%v; the rest of the edit did not land, so if it shows, eukhe puts it back", a.err)
				}
				ep.s.follow(ep.planned(p, 0), d.e, a.watch, whole || a.editorApplied)
			}
		case a.err != nil:
			d.out = docs.Outcome{Fate: docs.Failed, Err: a.err}
		default:
			d.out = docs.Outcome{Fate: docs.Untried}
		}
	}
}

// putBack sends, in one go, the inverse edits of every landed open
// document of the restore: the edit's lines get their old text back, the
// user's changes since on other lines stay (rebaseBack). One the user
// changed on the edit's own lines is left as it is, with the reason.
func (ep *editorPub) putBack() {
	var back []docEdit
	var who []*openDoc
	for _, p := range ep.back {
		d := ep.open[p]
		if d == nil || d.undone {
			continue
		}
		d.undone = true
		e := d.e
		if d.kept {
			d.undo = docs.Outcome{Fate: docs.Failed, Err: errors.New("not put back: the editor answered that it applied the whole edit at once")}
			landed := docs.Committed{Outcomes: []docs.Outcome{{Fate: docs.Landed}}}
			ep.s.reviewLanded([]*planned{ep.planned(p, 0)}, &landed) // it stays: the user keeps or undoes it
			continue
		}
		cur, open := ep.s.ov.get(e.target())
		switch {
		case !open:
			d.undo = docs.Outcome{Fate: docs.Failed, Err: fmt.Errorf("it is not open in the editor under %s any more", e.target())}
			continue
		case cur.lost != nil:
			d.undo = docs.Outcome{Fate: docs.Failed, Err: cur.lost}
			continue
		}
		to, ok := rebaseBack(e.from, e.to, cur.data)
		if !ok {
			d.undo = docs.Outcome{Fate: docs.Failed, Err: errors.New("it changed in the editor on the edit's own lines after the edit landed")}
			continue
		}
		back = append(back, docEdit{uri: cur.uri, path: cur.path, version: cur.version, from: cur.data, to: to, moveTo: moveBack(e), back: true})
		who = append(who, d)
	}
	if len(back) == 0 {
		return
	}
	for k, a := range ep.s.apply(back, true) {
		switch {
		case a.landed:
			who[k].undo = docs.Outcome{Fate: docs.Landed}
		case a.unconfirmed:
			who[k].undo = docs.Outcome{Fate: docs.Failed, Err: fmt.Errorf("putting it back is not confirmed yet (%v): read it again", a.err)}
		default:
			who[k].undo = docs.Outcome{Fate: docs.Failed, Err: fmt.Errorf("putting it back failed: %v", a.err)}
		}
	}
}

// Discard drops a disk change's temp file; an open document's edit was
// never sent, or its fate is kept.
func (ep *editorPub) Discard(p *docs.Pending) {
	if ep.open[p] == nil {
		ep.disk.Discard(p)
	}
}

// Finish lets the disk sync its directories, and asks the editor to save
// the documents that landed (save.go). After a restore (outs nil) only
// the disk's part is finished.
func (ep *editorPub) Finish(ps []*docs.Pending, outs []docs.Outcome) {
	var onDisk, open []*docs.Pending
	var diskOuts []docs.Outcome
	var at []int
	for i, p := range ps {
		if ep.open[p] != nil {
			open = append(open, p)
			continue
		}
		onDisk, at = append(onDisk, p), append(at, i)
		if outs != nil {
			diskOuts = append(diskOuts, outs[i])
		}
	}
	if len(onDisk) > 0 {
		ep.disk.Finish(onDisk, diskOuts)
		for k, i := range at {
			if outs != nil {
				outs[i] = diskOuts[k]
			}
		}
	}
	if outs == nil || len(open) == 0 {
		return
	}
	planned := make([]*planned, 0, len(open))
	for i, p := range ps {
		if ep.open[p] != nil {
			planned = append(planned, ep.planned(p, i))
		}
	}
	ep.s.save(planned, &docs.Committed{Outcomes: outs})
}

// planned is a change of the commit as save and review take it, at index i
// of its outcomes.
func (ep *editorPub) planned(p *docs.Pending, i int) *planned {
	pl := &planned{i: i, c: p.Change, real: p.Target()}
	if d := ep.open[p]; d != nil {
		pl.open, pl.v, pl.dirty, pl.file = true, d.v, d.dirty, d.file
		if d.rebased {
			// it holds the user's keystrokes of before the landing: it is
			// left unsaved (save.go)
			pl.c.Old, pl.c.New, pl.rebased = d.e.from, d.e.to, true
		}
	}
	return pl
}
