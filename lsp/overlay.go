package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// overlay is the text of every document open in the editor, exactly as the
// editor holds it (unsaved changes included), at the version the editor
// gave it. It is fed by didOpen, didChange and didClose, in the order the
// editor sent them.
type overlay struct {
	mu      sync.Mutex
	enc     encoding
	byPath  map[string]*document // by the path the editor named, and by its real path
	watches map[*watch]struct{}
}

// document is one open document.
type document struct {
	uri     uri.URI // as the editor named it: edits go back under this name
	path    string  // its file, cleaned
	real    string  // the file with symlinks resolved, when that differs
	version int32
	text    text
}

func newOverlay() *overlay {
	return &overlay{byPath: map[string]*document{}, watches: map[*watch]struct{}{}}
}

// pathOf is the file of a file: URI; other schemes are not documents of
// the store.
func pathOf(u uri.URI) (string, bool) {
	if !u.IsFile() {
		return "", false
	}
	return filepath.Clean(u.FsPath()), true
}

func (o *overlay) setEncoding(e encoding) {
	o.mu.Lock()
	o.enc = e
	o.mu.Unlock()
}

// open records a document the editor opened (or opened again).
func (o *overlay) open(u uri.URI, version int32, s string) {
	path, ok := pathOf(u)
	if !ok {
		return
	}
	d := &document{uri: u, path: path, version: version, text: newText([]byte(s))}
	if r, err := filepath.EvalSymlinks(path); err == nil && r != path {
		d.real = r
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.drop(path)
	o.byPath[path] = d
	if d.real != "" {
		o.byPath[d.real] = d
	}
	o.changed(d)
}

// change applies one didChange: its changes in order, each on the text the
// one before it left.
func (o *overlay) change(u uri.URI, version int32, changes []lsproto.TextDocumentContentChangeEvent) error {
	path, ok := pathOf(u)
	if !ok {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	d := o.byPath[path]
	if d == nil || d.path != path {
		return fmt.Errorf("didChange for %s, which is not open (no didOpen came for it)", u)
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *lsproto.TextDocumentContentChangePartial:
			from := d.text.offset(c.Range.Start, o.enc)
			to := max(from, d.text.offset(c.Range.End, o.enc))
			d.text.replace(from, to, []byte(c.Text))
		case *lsproto.TextDocumentContentChangeWholeDocument:
			d.text = newText([]byte(c.Text))
		}
	}
	d.version = version
	o.changed(d)
	return nil
}

// close forgets a document the editor closed.
func (o *overlay) close(u uri.URI) {
	if path, ok := pathOf(u); ok {
		o.mu.Lock()
		o.drop(path)
		o.mu.Unlock()
	}
}

// clear forgets every document: the editor went away.
func (o *overlay) clear() {
	o.mu.Lock()
	o.byPath = map[string]*document{}
	o.mu.Unlock()
}

func (o *overlay) drop(path string) {
	if d := o.byPath[path]; d != nil && d.path == path {
		delete(o.byPath, path)
		if d.real != "" && o.byPath[d.real] == d {
			delete(o.byPath, d.real)
		}
	}
}

// view is what a commit knows of an open document at one moment.
type view struct {
	uri     uri.URI
	path    string
	version int32
	data    []byte // a copy
}

// get gives a copy of an open document's text, by its path or its real
// path.
func (o *overlay) get(path string) (view, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	d := o.byPath[path]
	if d == nil {
		return view{}, false
	}
	return view{uri: d.uri, path: d.path, version: d.version, data: bytes.Clone(d.text.b)}, true
}

// size is an open document's length, without copying it.
func (o *overlay) size(path string) (int, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if d := o.byPath[path]; d != nil {
		return len(d.text.b), true
	}
	return 0, false
}

// isOpen tells whether path is an open document.
func (o *overlay) isOpen(path string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.byPath[path] != nil
}

// in lists the open documents directly in dir, by name.
func (o *overlay) in(dir string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var names []string
	for p, d := range o.byPath {
		if p == d.path && filepath.Dir(p) == dir {
			names = append(names, filepath.Base(p))
		}
	}
	return names
}

// encoding is the negotiated position encoding.
func (o *overlay) encoding() encoding {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.enc
}
