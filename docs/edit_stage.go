package docs

import (
	"runtime"
	"sync"
)

// The edit tool's read and stage steps: the files are read and scanned
// side by side (the heavy part of a many-file edit); each is staged, in
// order, as soon as its scan is done, and its new bytes are made (and
// handed to the batch) while the next ones are staged.

// editWork is the reading and building of one edit's files.
type editWork struct {
	scans []scanned
	ready []chan struct{}
	work  sync.WaitGroup
	snaps []Snapshot
}

// read starts reading and scanning every target's file, side by side.
func (w *editWork) read(t *Tools, ts []editTarget) {
	w.scans = make([]scanned, len(ts))
	w.ready = make([]chan struct{}, len(ts))
	for i := range w.ready {
		w.ready[i] = make(chan struct{})
	}
	w.work.Go(func() {
		eachParallel(len(ts), func(i int) {
			w.scans[i] = t.scan(ts[i].real, t.Display(ts[i].s.abs), ts[i].s.sec.Tagged)
			close(w.ready[i])
		})
	})
}

// wait waits for every scan and build; the snapshots read are kept to be
// released.
func (w *editWork) wait() {
	w.work.Wait()
	for i := range w.scans {
		if w.scans[i].err == nil {
			w.snaps = append(w.snaps, w.scans[i].snap)
		}
	}
}

// release gives back the snapshots read (after wait).
func (w *editWork) release() {
	for i := range w.snaps {
		w.snaps[i].Release()
	}
}

// stageAll stages each target, in order, as its scan ends, and builds
// its new bytes in the background (written to the batch early while no
// anchor is unseen). refusal is the refusal of the first section that cannot
// be staged; unseen are the anchors the model has not seen.
func (t *Tools) stageAll(w *editWork, ts []editTarget, batch Batch) (st []*staged, unseen []Anchor, refusal *Refusal) {
	builders := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, tg := range ts {
		real := tg.real
		<-w.ready[i]
		s := tg.s
		if err := w.scans[i].err; err != nil {
			return st, unseen, refuseSection(s.shown, RefusedUnreadable, "%s cannot be read: %v. Nothing was written.", s.name(), err)
		}
		if r := t.stage(s, w.scans[i].snap, &w.scans[i]); r != nil {
			return st, unseen, r
		}
		s.change.Still = allOf(tg.checks)
		if s.v != nil {
			s.change.Rebase = t.rebaser(s)
		}
		st = append(st, s)
		if s.sec.Tagged && !s.already {
			unseen = append(unseen, s.unseen()...)
		}
		write := batch != nil && len(unseen) == 0
		builders <- struct{}{}
		w.work.Go(func() {
			defer func() { <-builders }()
			s.build()
			if write && s.change.New != nil && !s.change.Create && s.dest == "" {
				batch.Write(real, s.change.New)
			}
		})
	}
	return st, unseen, nil
}
