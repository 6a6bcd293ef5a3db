package docs

import (
	"sync"
	"time"
)

// WalkProgress is how far a long grep has got, for a caller that shows
// progress (the LSP server's $/progress). Nothing here knows how it is
// shown.
type WalkProgress struct {
	What string // what runs: "grep PATTERN in PATH"
	Done int    // files searched so far
	End  bool   // the walk is over: the last call, with the final count
}

// DefaultProgressEvery is how often a walk's progress is told when
// Tools.ProgressEvery is 0.
const DefaultProgressEvery = 100 * time.Millisecond

// watchProgress tells t.Progress how a walk goes: every interval, from a
// goroutine of its own that reads the tally (the walk's hot path pays
// nothing more than the tally it already keeps). A walk shorter than one
// interval tells nothing. The returned stop ends the reporting and, when
// anything was told, makes the one End call, after the last report.
func (t *Tools) watchProgress(what string, tally *Tally) (stop func()) {
	if t.Progress == nil {
		return func() {}
	}
	every := t.ProgressEvery
	if every <= 0 {
		every = DefaultProgressEvery
	}
	quit := make(chan struct{})
	told := make(chan bool, 1)
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		said := false
		for {
			select {
			case <-quit:
				told <- said
				return
			case <-tick.C:
				t.Progress(WalkProgress{What: what, Done: tally.searched()})
				said = true
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			if <-told {
				t.Progress(WalkProgress{What: what, Done: tally.searched(), End: true})
			}
		})
	}
}

// searched is the number of files searched so far.
func (t *Tally) searched() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.Count[Searched] + t.Count[Part]
}
