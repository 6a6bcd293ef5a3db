package docs

import "sync"

// Batch is a commit begun before its changes are all made (Store.Begin).
// The disk writes the intent journal at once, and the temp file of each
// change as soon as its new bytes are known, while the edit tool makes the
// others; the commit then only checks, syncs and publishes. The commit is
// Store.Commit of changes whose Begun is the batch: a wrapper that changes
// Commit cannot commit around itself, and one that does not forwards the
// batch with the changes.
type Batch interface {
	// Write starts writing, in the background, data as the new bytes of
	// the file at path: the real path the gate judged (no link on it),
	// which is taken as it is — a link made on it since is not followed,
	// and nothing is written then.
	Write(path string, data []byte)
	// Close drops what was written and not published, and the journal
	// when no commit used it; after the commit, or instead of it.
	Close()
	// disk is the disk's batch under any wrapper, nil for NoBatch. It is
	// unexported on purpose: every Batch is the disk's, NoBatch, or a
	// wrapper that embeds one of them, so a wrapper cannot hide from the
	// disk the batch it began.
	disk() *diskBatch
}

// NoBatch is the Batch of a store that writes nothing early (ByPath's,
// the editor's): the commit does all of the work.
var NoBatch Batch = noBatch{}

type noBatch struct{}

func (noBatch) Write(string, []byte) {}
func (noBatch) Close()               {}
func (noBatch) disk() *diskBatch     { return nil }

// begun is what the engine takes from a commit begun early: the journals
// left behind it finished, and the intent journal it wrote (nil when none).
type begun struct {
	recovered []Recovery
	j         *journal
}

// diskBatch is the disk's Batch.
type diskBatch struct {
	d     *Disk
	begun // its journal: phase "prepare", paths only; nil when none is kept
	slots chan struct{}

	mu    sync.Mutex
	early map[string]*earlyTemp // by real path
}

// Begin finishes the journals left behind (before any write, as Commit
// does), writes the journal of this commit listing its paths, and returns
// the batch. With a Fault hook set nothing is done early (the hook sees
// every step of a commit in order): Disk.Commit then ignores the batch.
func (d *Disk) Begin(paths []string) Batch {
	b := &diskBatch{d: d, early: map[string]*earlyTemp{}, slots: make(chan struct{}, batchWriters())}
	if d.Fault != nil {
		return b
	}
	if d.Journal != "" {
		b.recovered = recoverDead(d.journalAt())
		if len(paths) > 1 {
			ps := make([]*Pending, len(paths))
			for i, p := range paths {
				ps[i] = &Pending{Change: Change{Path: p}, Real: realPath(p)}
			}
			b.j, _ = writeJournal(d.journalAt(), ps, nil) // none: the commit writes its own
		}
	}
	return b
}

func (b *diskBatch) disk() *diskBatch { return b }

func (b *diskBatch) Write(path string, data []byte) {
	if b.d.Fault != nil || data == nil || (b.j == nil && b.d.Journal != "") {
		return // a temp file no journal lists would outlive a crash
	}
	e := &earlyTemp{done: make(chan struct{}), data: data}
	real := path
	b.mu.Lock()
	if old := b.early[real]; old != nil {
		b.mu.Unlock()
		return
	}
	b.early[real] = e
	b.mu.Unlock()
	go func() {
		b.slots <- struct{}{}
		defer func() { <-b.slots }()
		e.temp, e.err = b.d.writeTemp(real, data, 0o600)
		close(e.done)
	}()
}

// take hands the commit the temp file written for a change, if any.
func (b *diskBatch) take(p *Pending) {
	b.mu.Lock()
	e := b.early[p.Real]
	delete(b.early, p.Real)
	b.mu.Unlock()
	if e == nil {
		return
	}
	if p.Create || p.RealDest != "" || !sameBytes(e.data, p.New) {
		dropEarly(&Pending{early: e})
		return
	}
	p.early = e
}

// begunIn is the batch of d that a change set carries, if any (none with
// a Fault hook set: see Begin).
func (d *Disk) begunIn(cs []Change) *diskBatch {
	if d.Fault != nil {
		return nil
	}
	for _, c := range cs {
		if c.Begun == nil {
			continue
		}
		if b := c.Begun.disk(); b != nil && b.d == d {
			return b
		}
	}
	return nil
}

// batchPub is the disk publishing a commit it began: before it writes temp
// files early itself, each change adopts the one the batch wrote for it.
type batchPub struct {
	*Disk
	b *diskBatch
}

func (bp batchPub) PrepareEarly(ps []*Pending) {
	for _, p := range ps {
		bp.b.take(p)
	}
	bp.Disk.PrepareEarly(ps)
}

func (b *diskBatch) Close() {
	b.mu.Lock()
	left := b.early
	b.early = map[string]*earlyTemp{}
	b.mu.Unlock()
	for _, e := range left {
		dropEarly(&Pending{early: e})
	}
	b.j.end(nil)
}
