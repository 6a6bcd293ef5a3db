package docs

import "runtime"

// earlyTemp is a temp file the disk writes while the commit is checked
// (PrepareEarly): the new bytes of a change that replaces a file in place.
type earlyTemp struct {
	done chan struct{} // closed once written (or failed)
	data []byte        // the bytes it holds: the change's New when it began
	temp *tempFile
	err  error
}

// PrepareEarly starts writing, beside each file a change replaces in
// place, a temp file with its new bytes, one a processor at a time (up to
// 8: creates in one directory wait for each other, and more only spin),
// and returns at once: the disk works while the engine reads the files
// for the check. Prepare adopts a temp file whose change kept its New
// (one the check rebased gets a new one); Discard drops it. A created file and a move
// are prepared by Prepare alone (their directories may need making).
// With a Fault hook set nothing is done early, so that the hook sees
// every step of a commit in one goroutine, in order.
func (d *Disk) PrepareEarly(ps []*Pending) {
	if d.Fault != nil {
		return
	}
	var todo []*Pending
	for _, p := range ps {
		if p.early == nil && !p.Create && p.RealDest == "" && p.New != nil {
			p.early = &earlyTemp{done: make(chan struct{}), data: p.New}
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return
	}
	// Prepare sweeps dead temp files: these are locked, so it leaves them.
	go eachParallelN(batchWriters(), len(todo), func(k int) {
		e := todo[k].early
		e.temp, e.err = d.writeTemp(todo[k].Real, e.data, 0o600)
		close(e.done)
	})
}

// adopt waits for a change's early temp file and takes it as its prepared
// file when it holds the change's New, with the file's mode; false when
// there is none to take. Prepare then writes one, and says why when that
// fails too: whatever went wrong early is only tried again.
func (d *Disk) adopt(p *Pending) bool {
	e := p.early
	if e == nil {
		return false
	}
	<-e.done
	p.early = nil
	if e.err != nil {
		return false
	}
	if !sameBytes(e.data, p.New) {
		e.temp.discard() // the check rebased it (its New is another)
		return false
	}
	e.temp.mode = p.Mode.Perm() // given once it lands (reveal)
	p.temp, p.Staged = e.temp, e.temp.path
	return true
}

// dropEarly discards a change's early temp file, once written.
func dropEarly(p *Pending) {
	if e := p.early; e != nil {
		<-e.done
		p.early = nil
		e.temp.discard()
	}
}

// sameBytes tells whether two slices are the same memory (not merely
// equal bytes: New made anew by a rebase is another slice).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// batchWriters is how many temp files are written at once: one a
// processor, up to 8 (creates in one directory wait for each other, and
// more writers only spin).
func batchWriters() int { return min(runtime.GOMAXPROCS(0), 8) }
