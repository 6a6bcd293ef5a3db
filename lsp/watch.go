package lsp

import (
	"bytes"
	"context"
	"time"
)

// watch waits for an open document to hold an edit from → want (exactly
// want, or want with changes of the user's elsewhere: holds): how a commit
// learns that its edit landed. applied: true proves nothing (Neovim answers
// it for a buffer it skipped); the didChange that follows the edit does.
type watch struct {
	path    string
	from    []byte
	want    []byte
	reached chan struct{} // closed when the document held the edit
	hit     bool
	sig     chan<- struct{} // poked (never blocking) at every change; may be nil
	onReach func()          // runs once when reached, outside o.mu; set by track
	// passed: the document held exactly want between two changes of one
	// notification, and not at its end (overlay.applyChanges)
	passed bool
}

// passedThrough tells whether w's document held exactly its edit's text
// only on the way, between two changes of one notification.
func (o *overlay) passedThrough(w *watch) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return w.passed && !w.hit
}

// watch starts watching path for the edit from → want; it may be reached
// at once.
func (o *overlay) watch(path string, from, want []byte, sig chan<- struct{}) *watch {
	w := &watch{path: path, from: from, want: want, reached: make(chan struct{}), sig: sig}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.watches[w] = struct{}{}
	if d := o.byPath[path]; d != nil {
		o.check(w, d)
	}
	return w
}

// unwatch stops a watch.
func (o *overlay) unwatch(ws ...*watch) {
	o.mu.Lock()
	for _, w := range ws {
		delete(o.watches, w)
	}
	o.mu.Unlock()
}

// changed checks the watches of a document that changed; the caller holds
// o.mu.
func (o *overlay) changed(d *document) {
	for w := range o.watches {
		if w.path == d.path || w.path == d.real {
			o.check(w, d)
		}
	}
}

// passed looks at the watches of a document at a text it held only on
// the way (between two changes of one notification): one whose edit's
// text it is exactly is marked passed, not reached — the editor applied
// the edit and the user took it back at once, or the user's typing went
// through the same text; nobody is poked. Only a byte comparison: a
// notification may hold thousands of changes. The caller holds o.mu.
func (o *overlay) passed(d *document) {
	for w := range o.watches {
		if !w.hit && !w.passed && (w.path == d.path || w.path == d.real) && bytes.Equal(w.want, d.text.b) {
			w.passed = true
		}
	}
}

func (o *overlay) check(w *watch, d *document) {
	o.reachedAt(w, d)
	if w.sig != nil {
		select {
		case w.sig <- struct{}{}:
		default:
		}
	}
}

// reachedAt marks w reached when d's text holds its edit; the caller
// holds o.mu.
func (o *overlay) reachedAt(w *watch, d *document) {
	if !w.hit && d.seq.lost == "" && (bytes.Equal(w.want, d.text.b) || w.from != nil && holds(w.from, w.want, d.text.b)) {
		o.hit(w)
	}
}

// hit marks w reached; the caller holds o.mu.
func (o *overlay) hit(w *watch) {
	w.hit = true
	close(w.reached)
	if w.onReach != nil {
		go w.onReach()
		delete(o.watches, w)
	}
}

// await waits until every watch is reached, or ctx ends; it tells which
// were reached.
func await(ctx context.Context, ws []*watch) []bool {
	for _, w := range ws {
		select {
		case <-w.reached:
		case <-ctx.Done():
		}
	}
	got := make([]bool, len(ws))
	for i, w := range ws {
		select {
		case <-w.reached:
			got[i] = true
		default:
		}
	}
	return got
}

// reach marks a watch reached from outside the overlay (a move seen on
// disk).
func (o *overlay) reach(w *watch) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !w.hit {
		o.hit(w)
	}
	if w.sig != nil {
		select {
		case w.sig <- struct{}{}:
		default:
		}
	}
}

// track keeps an unconfirmed watch until it is reached (then f runs, once)
// or the document is closed or opened again; it tells false when it was
// reached already.
func (o *overlay) track(w *watch, f func()) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if w.hit {
		return false
	}
	w.sig = nil
	w.onReach = f
	return true
}

// waitChange waits for a change of an open document, at most d; it tells
// whether one came.
func (o *overlay) waitChange(ctx context.Context, path string, d time.Duration) bool {
	sig := make(chan struct{}, 1)
	// poked from the next change on: watch's own check at the start pokes
	// too, which answered "a change came" at once, every time (a loop on
	// it spun instead of waiting)
	w := o.watch(path, nil, nil, nil)
	defer o.unwatch(w)
	o.mu.Lock()
	w.sig = sig
	o.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-sig:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}
