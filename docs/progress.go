package docs

import (
	"context"
	"sync"
	"time"
)

// Progress is how far a long call has got, for a client that shows it
// (MCP notifications/progress, LSP $/progress). Nothing here knows how it
// is shown.
type Progress struct {
	What    string // what runs, the same for every report of a call: "grep PATTERN in PATH"
	Message string // how far it got: "1,200 files searched"
	Done    int    // a count that never falls within a call: files searched, the report's number
	End     bool   // the last report of the call, made before the call returns
}

// ProgressFunc takes one call's reports, one at a time and in order.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress is ctx whose call reports its progress to f; a nil f
// leaves ctx as it is.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, f)
}

// ProgressOf is where ctx's call reports its progress; nil when no one
// asked, and then nothing is computed.
func ProgressOf(ctx context.Context) ProgressFunc {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return f
}

// JoinProgress tells every f that is not nil; nil when none is.
func JoinProgress(fs ...ProgressFunc) ProgressFunc {
	var set []ProgressFunc
	for _, f := range fs {
		if f != nil {
			set = append(set, f)
		}
	}
	switch len(set) {
	case 0:
		return nil
	case 1:
		return set[0]
	}
	return func(p Progress) {
		for _, f := range set {
			f(p)
		}
	}
}

// DefaultProgressEvery is how often a walk's progress is told when
// Tools.ProgressEvery is 0.
const DefaultProgressEvery = 100 * time.Millisecond

// WatchProgress tells f how a call goes: every interval, from a goroutine
// of its own, the report now(n) makes for the n-th time (n from 1). A
// call shorter than one interval tells nothing. The returned stop ends the
// reporting and, when anything was told, makes the one End report (now's
// next, End set) after the last one, before it returns. A nil f watches
// nothing.
func WatchProgress(f ProgressFunc, every time.Duration, now func(n int) Progress) (stop func()) {
	if f == nil {
		return func() {}
	}
	if every <= 0 {
		every = DefaultProgressEvery
	}
	quit := make(chan struct{})
	told := make(chan int, 1)
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		n := 0
		for {
			select {
			case <-quit:
				told <- n
				return
			case <-tick.C:
				n++
				f(now(n))
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			if n := <-told; n > 0 {
				p := now(n + 1)
				p.End = true
				f(p)
			}
		})
	}
}

// watchWalk tells the call's progress sink how a walk goes (tool is grep
// or glob): the files it searched, or for glob considered, so far. The
// walk's hot path pays nothing more than the tally it already keeps.
func (t *Tools) watchWalk(ctx context.Context, tool, what string, tally *Tally) (stop func()) {
	return WatchProgress(ProgressOf(ctx), t.ProgressEvery, func(int) Progress {
		n := walked(tool, tally)
		return Progress{What: what, Message: Count(n, "file") + " " + walkVerb(tool), Done: n}
	})
}

// searched is the number of files searched so far.
func (t *Tally) searched() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.Count[Searched] + t.Count[Part]
}
