package docs

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Publisher is where a checked change set lands (DESIGN.md §10): the disk
// writer (Disk), or an editor's open documents. The commit engine
// (CommitVia) owns the rules — S8.1's lock and byte check with the rebase
// of a change made on older bytes, the MV destination and creation checks
// of S8.4, the read-only refusal, the intent journal, the order of
// publishes and the restore after a failure — and calls a Publisher only
// for what differs between stores.
//
// The engine calls, in this order: Lock; Check, then PrepareEarly, then
// Unchanged or Current and Lstat for the check; Prepare of every change; Publish of each in
// order, stopping at the first that did not land (Failed, or Unconfirmed:
// an editor took it and has not shown it yet); then Prepare and Publish of
// the landed ones with back set (their old bytes back), in reverse order;
// Finish; and the unlock. Discard drops what Prepare made for a change
// that was not published. A publisher may publish several changes at once
// (an editor's one workspace edit): it then keeps their outcomes for their
// own Publish, which the engine still calls in order.
type Publisher interface {
	// Lstat tells what is at a path, not following a last symlink; a
	// missing path has Exists false and no error.
	Lstat(path string) (Stat, error)
	// Current gives a path's bytes as this publisher holds them now (an
	// open document's text, else the disk's); a missing path is a
	// Snapshot with Stat.Exists false and no error.
	Current(path string) (Snapshot, error)
	// Lock takes the writer's locks over every path, in one order; on a
	// failure it gives the index of the path it could not lock.
	Lock(paths []string) (unlock func(), failed int, err error)
	// Prepare makes every change ready to publish without making any of
	// it visible (the disk: a temp file written and fsync'd beside each
	// target, its path in Staged). back prepares the old bytes of landed
	// changes, for their restore. On a failure it gives the index of the
	// first change that failed.
	Prepare(ps []*Pending, back bool) (failed int, err error)
	// Publish makes one prepared change land, verified: its new bytes, or
	// with back its old ones again.
	Publish(p *Pending, back bool) Outcome
	// Discard drops what Prepare made for a change it will not publish.
	Discard(p *Pending)
	// Finish makes the landed changes durable (the disk: each directory
	// synced once); a failure is a warning on the outcomes it concerns.
	Finish(ps []*Pending, outs []Outcome)

	// Each publisher says what it adds to the engine's own work; one
	// that adds nothing embeds PlainPublisher (bypath.go).

	// Check is the publisher's own refusal, asked under the lock before
	// the engine's checks of each change: an editor that cannot apply
	// edits to an open document, or a move onto a document open there. ""
	// lets the change go on to the engine's checks.
	Check(p *Pending) string
	// PrepareEarly may start preparing changes before they are checked
	// (the disk: writing the temp files while the files are read for the
	// check; a batch's, written while the edit was made). Prepare then
	// uses what it made for a change whose New the check left as it was,
	// and drops the rest; Discard drops it too.
	PrepareEarly(ps []*Pending)
	// Unchanged tells, without reading it, that the file at path still
	// holds the bytes a read of it stamped (the disk: stamp.go), and gives
	// its Stat then; false makes the engine read the file and compare.
	Unchanged(path string, was Stamp) (Stat, bool)
}

// CommitVia is the commit engine (S8.1, S8.4, DESIGN.md §10): it locks
// every path, checks every change (rebasing one made on older bytes when
// only lines it keeps changed), prepares all of them, writes an intent
// journal into j.Dir when more than one change will publish (j.Dir "" keeps
// none), publishes in order, stops at the first failure and restores what
// landed, and removes the journal. A change it rebased comes back in cs
// with the Old it checked and the New it published.
func CommitVia(pub Publisher, j JournalAt, fault func(step, path string) error, cs []Change) Committed {
	e := engine{pub: pub, j: j, fault: fault}
	return e.commit(cs)
}

type engine struct {
	begun *begun // the commit was begun early (Store.Begin), or nil
	pub   Publisher
	j     JournalAt
	fault func(step, path string) error
}

func (e *engine) commit(cs []Change) Committed {
	res := Committed{Outcomes: make([]Outcome, len(cs))}
	ps := make([]*Pending, len(cs))
	var paths []string
	var owner []int
	for i, c := range cs {
		p := &Pending{Change: c, Real: realPath(c.Path), Mode: c.Mode}
		paths, owner = append(paths, p.Real), append(owner, i)
		if c.MoveTo != "" {
			p.RealDest = realPath(c.MoveTo)
			paths, owner = append(paths, p.RealDest), append(owner, i)
		}
		ps[i] = p
	}
	if c := oneFileTwice(ps); c != nil {
		res.Conflict = c
		return res
	}
	switch {
	case e.begun != nil:
		res.Recovered = e.begun.recovered // Begin did it, before its first write
	case e.j.Dir != "":
		res.Recovered = recoverDead(e.j) // before any write (DESIGN.md §10)
	}
	unlock, failed, err := e.pub.Lock(paths)
	if err != nil {
		res.Conflict = &Conflict{Index: owner[failed], Why: err.Error()}
		return res
	}
	defer unlock()
	fail := func(i int, err error) Committed {
		res.Outcomes[i] = Outcome{Fate: Failed, Err: err, Rebased: res.Outcomes[i].Rebased}
		return res
	}
	// The journal lists where temp files may be before any is written;
	// a publisher that can writes them while the changes are checked.
	var j *journal
	if e.begun != nil && e.begun.j != nil && len(ps) > 1 {
		j = e.begun.j // Begin's, listing these paths; forward names them as the changes do
		j.rec.Files = journalFiles(ps)
	} else if e.j.Dir != "" && len(ps) > 1 {
		if j, err = writeJournal(e.j, ps, e.fault); err != nil {
			return fail(0, err)
		}
	}
	refuse := func(i int, why string) Committed {
		e.discard(ps)
		j.end(e.fault)
		res.Conflict = &Conflict{Index: i, Why: why}
		return res
	}
	// Nothing is written, not even a temp file, before every path still
	// resolves as the gate judged it.
	onDisk := 0
	for i, p := range ps {
		if why := e.still(p); why != "" {
			return refuse(i, why)
		}
		if !p.Buffer {
			onDisk++
		}
	}
	if onDisk == 0 && j != nil {
		j.end(e.fault) // every change lands in an editor's buffers: nothing for a journal
		j = nil
	}
	e.pub.PrepareEarly(ps)
	// The files are read a window at a time, side by side: a commit of
	// many big files holds a window of them, not all, a third time.
	for lo := 0; lo < len(ps); lo += checkWindow {
		hi := min(lo+checkWindow, len(ps))
		curs := e.current(ps[lo:hi])
		for k, p := range ps[lo:hi] {
			i := lo + k
			why := e.check(p, curs[k])
			curs[k].Release()
			if why != "" {
				for _, c := range curs[k+1:] {
					c.Release()
				}
				return refuse(i, why)
			}
			if p.Rebased {
				cs[i].Old, cs[i].New = p.Old, p.New
				res.Outcomes[i].Rebased = true
			}
		}
	}
	sums := make(chan []sums, 1)
	go func() { sums <- j.sumsOf(ps) }()
	if i, err := e.pub.Prepare(ps, false); err != nil {
		<-sums
		e.discard(ps)
		j.end(e.fault)
		return fail(i, err)
	}
	if err := j.forward(ps, <-sums, e.fault); err != nil {
		e.discard(ps)
		j.end(e.fault)
		return fail(0, err)
	}
	for i, p := range ps {
		o := e.pub.Publish(p, false)
		o.Rebased = o.Rebased || res.Outcomes[i].Rebased // the publisher's own (an editor's buffer typed in) or the check's
		res.Outcomes[i] = o
		if o.Fate != Landed { // Failed, or Unconfirmed: an editor took it, unseen yet
			e.restore(ps[:i], res.Outcomes, j)
			e.discard(ps[i:])
			j.end(e.fault)
			return res
		}
	}
	e.pub.Finish(ps, res.Outcomes)
	if err := j.end(e.fault); err != nil {
		res.Outcomes[0].Warning = joinWarn(res.Outcomes[0].Warning, fmt.Sprintf("removing the intent journal failed (%v); the next start of eukhe finds every file landed and removes it", err))
	}
	return res
}

// still is the first part of the check, before any file is read: the
// path still resolves as the gate judged it, and the publisher's own
// refusals.
func (e *engine) still(p *Pending) string {
	if p.Still != nil {
		if err := p.Still(); err != nil {
			return err.Error()
		}
	}
	return e.pub.Check(p)
}

// checkWindow is how many files the check reads at once.
const checkWindow = 16

// currentOf is a file's bytes as the check reads them under the lock.
type currentOf struct {
	snap Snapshot
	err  error
	same bool // the publisher vouched that the file holds Old (snap.Data is Old)
}

func (c currentOf) Release() { c.snap.Release() }

// current reads, under the lock, the bytes of every change that replaces
// or moves a file, side by side.
func (e *engine) current(ps []*Pending) []currentOf {
	out := make([]currentOf, len(ps))
	eachParallel(len(ps), func(i int) {
		p := ps[i]
		if p.Create {
			return
		}
		if p.OldStamp.Settled() {
			if st, ok := e.pub.Unchanged(p.Real, p.OldStamp); ok {
				out[i] = currentOf{snap: Snapshot{Data: p.Old, Stat: st}, same: true}
				return
			}
		}
		out[i].snap, out[i].err = e.pub.Current(p.Real)
	})
	return out
}

func (e *engine) discard(ps []*Pending) {
	for _, p := range ps {
		e.pub.Discard(p)
	}
}

// restore puts back the landed changes of a failed commit, newest first:
// the journal turned to the way back (so a crash now still ends all old),
// then their old bytes published. Both were made before the first
// publish (Prepare kept each old file, forward wrote the way back), so a
// restore takes no new space: a disk that filled up meanwhile does not
// stop it. When the journal cannot be turned back, the restore still
// runs (a crash during it is what the journal would be for; without the
// restore the files stay mixed for sure).
func (e *engine) restore(landed []*Pending, outs []Outcome, j *journal) {
	jerr := j.back(e.fault)
	if len(landed) == 0 {
		return // nothing to put back; the journal says so, in case it cannot be removed
	}
	if _, err := e.pub.Prepare(landed, true); err != nil {
		e.discard(landed)
		for k := range landed {
			outs[k].Err = fmt.Errorf("preparing the old bytes failed: %v", err)
		}
		return
	}
	for k := len(landed) - 1; k >= 0; k-- {
		o := e.pub.Publish(landed[k], true)
		if o.Fate == Failed {
			outs[k].Err = o.Err
			continue
		}
		outs[k] = Outcome{Fate: Restored, Warning: o.Warning}
		if jerr != nil {
			outs[k].Warning = joinWarn(outs[k].Warning, fmt.Sprintf("put back while %v", jerr))
		}
	}
	e.pub.Finish(landed, nil)
}

// check is the rest of the pre-publish check of one change under the lock,
// over the bytes current read: "" when it may go on. A file whose bytes
// changed since the edit was made is rebased when the change can be (its
// lines unchanged), else refused.
func (e *engine) check(p *Pending, cur currentOf) string {
	if p.Create {
		st, err := e.pub.Lstat(p.Real)
		if err != nil || st.Exists {
			return fmt.Sprintf("%s exists now; read it and edit it with its tag, or create another name", p.Path)
		}
		if p.Mode == 0 {
			p.Mode = 0o644
		}
	} else {
		cur, err, same := cur.snap, cur.err, cur.same
		switch {
		case err != nil:
			return fmt.Sprintf("%s cannot be read to check it: %v", p.Path, err)
		case !cur.Stat.Exists:
			return fmt.Sprintf("%s is gone (moved or deleted since it was read); read it again", p.Path)
		case p.New != nil && cur.Stat.Mode.Perm()&0o200 == 0: // a bare move keeps the bytes: allowed
			return fmt.Sprintf("%s is read-only (mode %04o): eukhe does not replace it; if it should change, make it writable (chmod u+w) and retry", p.Path, cur.Stat.Mode.Perm())
		case !same && !bytes.Equal(cur.Data, p.Old):
			if p.Rebase == nil {
				return fmt.Sprintf("%s changed%s after the edit was made; read it again and redo the edit", p.Path, spaced(cur.In))
			}
			now := bytes.Clone(cur.Data)
			nb, err := p.Rebase(now)
			if err != nil {
				return err.Error()
			}
			p.Old, p.New, p.Rebased = now, nb, true
		}
		p.Mode = cur.Stat.Mode.Perm()
	}
	if p.RealDest != "" {
		if st, err := e.pub.Lstat(p.Path); err == nil && st.Mode&fs.ModeSymlink != 0 {
			return fmt.Sprintf("%s is a symbolic link; MV moves files, not links: move the link with bash (mv), or MV the file it links to", p.Path)
		}
		if st, err := e.pub.Lstat(p.RealDest); err != nil || st.Exists {
			return fmt.Sprintf("MV destination %s exists; a move never replaces a file: pick a free name", p.MoveTo)
		}
	}
	return ""
}

// oneFileTwice refuses a change set that names one file twice (a path and a
// symlink to it, or a directory and a link to it): the second publish would
// replace the first, and the reply would name bytes the file does not hold.
func oneFileTwice(ps []*Pending) *Conflict {
	owner := map[string]int{}
	for i, p := range ps {
		for _, path := range []string{p.Real, p.RealDest} {
			if path == "" {
				continue
			}
			if j, ok := owner[path]; ok && j != i {
				return &Conflict{Index: i, Why: fmt.Sprintf("%s and %s are the same file (through a symlink); put all of its ops in one section", ps[j].named(path), p.named(path))}
			}
			owner[path] = i
		}
	}
	return nil
}

// realPath is a path with every link on it resolved: the file a change
// names, as the writer locks, checks and writes it.
func realPath(p string) string {
	// The nearest part that exists, resolved, and the rest as named: a
	// file to create in directories to make still lands below the real
	// directory (no link on the way when it is written).
	rest := ""
	for at := p; ; {
		if r, err := filepath.EvalSymlinks(at); err == nil {
			return filepath.Join(r, rest)
		}
		up := filepath.Dir(at)
		if up == at {
			return p
		}
		rest = filepath.Join(filepath.Base(at), rest)
		at = up
	}
}

// spaced is " "+s, or "" for "".
func spaced(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}
