package docs

import "sync"

// Batcher is a Store that can begin a commit before its changes are all
// made (the disk): it writes the intent journal at once, and the temp file
// of each change as soon as its new bytes are known, while the edit tool
// makes the others. The commit then only checks, syncs and publishes. A
// Store that wraps the disk and changes its Commit must give its own
// Begin too (the disk's, promoted, would commit around the wrapper).
type Batcher interface {
	// Begin begins a commit of the files at paths (every path and move
	// destination the changes will name).
	Begin(paths []string) Batch
}

// Batch is a commit begun (Batcher.Begin).
type Batch interface {
	// Write starts writing, in the background, data as the new bytes of
	// the file at path: the real path the gate judged (no link on it),
	// which is taken as it is — a link made on it since is not followed,
	// and nothing is written then.
	Write(path string, data []byte)
	// Commit is Store.Commit of the changes: a change whose New is the
	// very slice written for its path uses what was written.
	Commit(cs []Change) Committed
	// Close drops what was written and not published, and the journal
	// when Commit did not run; after Commit, or instead of it.
	Close()
}

// diskBatch is the disk's Batch.
type diskBatch struct {
	d         *Disk
	j         *journal // the intent journal, phase "prepare", paths only; nil when none is kept
	recovered []Recovery
	slots     chan struct{}

	mu    sync.Mutex
	early map[string]*earlyTemp // by real path
}

// Begin finishes the journals left behind (before any write, as Commit
// does), writes the journal of this commit listing its paths, and returns
// the batch. With a Fault hook set nothing is done early (the hook sees
// every step of a commit in order): the batch's Commit is Disk.Commit.
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

func (b *diskBatch) Commit(cs []Change) Committed {
	d := b.d
	if d.Fault != nil {
		return d.Commit(cs)
	}
	e := engine{pub: d, j: d.journalAt(), fault: d.Fault, batch: b}
	return e.commit(cs)
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
