package lsp

import (
	"bytes"
	"context"
)

// watch waits for an open document to hold exactly some text: how a commit
// learns that its edit landed. applied: true proves nothing (Neovim answers
// it for a buffer it skipped); the didChange that follows the edit does.
type watch struct {
	path    string
	want    []byte
	reached chan struct{} // closed when the document held want
	hit     bool
}

// watch starts watching path for want; it may be reached at once.
func (o *overlay) watch(path string, want []byte) *watch {
	w := &watch{path: path, want: want, reached: make(chan struct{})}
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
		if w.path == d.path || (d.real != "" && w.path == d.real) {
			o.check(w, d)
		}
	}
}

func (o *overlay) check(w *watch, d *document) {
	if !w.hit && len(w.want) == len(d.text.b) && bytes.Equal(w.want, d.text.b) {
		w.hit = true
		close(w.reached)
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
		w.hit = true
		close(w.reached)
	}
}
