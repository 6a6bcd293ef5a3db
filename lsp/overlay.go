package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/gate"
)

// overlay is the text of every document open in the editor, exactly as the
// editor holds it (unsaved changes included), at the version the editor
// gave it. It is fed by didOpen, didChange and didClose, and applies each
// document's didChange strictly in version order (sequence.go): a copy
// that cannot be known in order is unknown, never served.
type overlay struct {
	mu      sync.Mutex
	enc     encoding
	num     numbering            // how the client numbers its versions, as seen so far (sequence.go)
	inOrder bool                 // the client is known to tell its changes in order (landing.go: saysInOrder)
	gapWait time.Duration        // how long a notification that skips ahead is held
	byPath  map[string]*document // by the path the editor named, and by its real path
	watches map[*watch]struct{}
	resolve func(string) gate.RealPath // a name's real path now (realpath.go)
}

// document is one open document.
type document struct {
	uri     uri.URI // as the editor named it: edits go back under this name
	path    string  // its file, cleaned
	real    string  // the real path its name resolved to at didOpen (realpath.go)
	looped  bool    // its links looped at didOpen
	version int32
	text    text
	seq     sequence // the notifications held back, and whether it is lost
}

func newOverlay() *overlay {
	return &overlay{byPath: map[string]*document{}, watches: map[*watch]struct{}{}, gapWait: defaultGapWait, resolve: osResolve}
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

// open records a document the editor opened (or opened again): an
// unknown document is known again from here.
func (o *overlay) open(u uri.URI, version int32, s string) {
	path, ok := pathOf(u)
	if !ok {
		return
	}
	r := o.resolve(path)
	d := &document{uri: u, path: path, real: r.Path, looped: r.Looped, version: version, text: newText([]byte(s))}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.drop(path)
	o.byPath[path] = d
	// Filed under its real path too, unless a document is open under
	// that path by its own name: that one is the file's buffer (a second
	// name opened later must not take its place, or its didChange would
	// be refused and reads would serve the other buffer's text).
	if own := o.byPath[d.real]; d.real != path && !d.looped && (own == nil || own.path != d.real) {
		o.byPath[d.real] = d
	}
	o.changed(d)
}

// change takes one didChange (sequence.go): applied at once when it is
// the next version or a full text, held back when it skips ahead (until
// the missing versions come, within gapWait), and the document unknown
// when it comes too late.
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
	wasLost := d.seq.lost != ""
	ready, wasHeld := d.seq.arrive(d.version, notification{version: version, changes: changes}, &o.num)
	for _, n := range ready {
		o.applyChanges(d, n)
	}
	if !wasHeld && d.seq.holding() {
		d.seq.gen++
		gen := d.seq.gen
		time.AfterFunc(o.gapWait, func() { o.expire(d, gen) })
	}
	if !wasLost && d.seq.lost != "" {
		return unknownError(d) // logged once; reads and edits say it again
	}
	return nil
}

// applyChanges applies one notification's changes in order, each on the
// text the one before it left; the caller holds o.mu.
//
// A watch is looked at every change, not only at the notification's
// end: an editor that sends several changes in one didChange (Neovim's
// debounce, Eglot's idle timer) may tell the edit applied and then the
// user's undo of it; a text that held the edit only on the way must not
// be taken for a skipped edit and sent again over the undo (watch.go,
// passed).
func (o *overlay) applyChanges(d *document, n notification) {
	for i, c := range n.changes {
		if i > 0 {
			o.passed(d)
		}
		switch c := c.(type) {
		case *lsproto.TextDocumentContentChangePartial:
			from := d.text.offset(c.Range.Start, o.enc)
			to := max(from, d.text.offset(c.Range.End, o.enc))
			d.text.replace(from, to, []byte(c.Text))
		case *lsproto.TextDocumentContentChangeWholeDocument:
			d.text = newText([]byte(c.Text))
		}
	}
	d.version = n.version
	o.changed(d)
}

// expire ends a hold that outlived gapWait: the missing versions did not
// come (sequence.go says what that means). expireLocked is expire under
// o.mu.
func (o *overlay) expire(d *document, gen uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.expireLocked(d, gen)
}

func (o *overlay) expireLocked(d *document, gen uint64) {
	for _, n := range d.seq.expire(gen, d.version, &o.num) {
		o.applyChanges(d, n)
	}
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
	for _, d := range o.byPath {
		d.seq.settle()
	}
	o.byPath = map[string]*document{}
	o.mu.Unlock()
}

func (o *overlay) drop(path string) {
	if d := o.byPath[path]; d != nil && d.path == path {
		for w := range o.watches {
			if w.onReach != nil && (w.path == d.path || w.path == d.real) {
				delete(o.watches, w) // an unconfirmed edit of a closed document is not followed further
			}
		}
		d.seq.settle()
		delete(o.byPath, path)
		if o.byPath[d.real] == d {
			delete(o.byPath, d.real)
		}
		o.refile(path)
		o.refile(d.real)
	}
}

// refile files another name of the same file still open under real when
// nothing is filed there any more (one open under real itself is filed
// there already): the open document with the least name whose real path
// it is, so that a map's order is not the rule. The caller holds o.mu.
func (o *overlay) refile(real string) {
	if o.byPath[real] != nil {
		return
	}
	var pick *document
	for p, other := range o.byPath {
		if p != other.path || other.real != real || other.looped {
			continue
		}
		if pick == nil || other.path < pick.path {
			pick = other
		}
	}
	if pick != nil {
		o.byPath[real] = pick
	}
}

// view is what a commit knows of an open document at one moment.
type view struct {
	uri     uri.URI
	path    string
	real    string // its name's real path at didOpen
	looped  bool   // its links looped then
	version int32
	data    []byte // a copy
	lost    error  // the copy is not known (data is nil): why, and what to do
}

// get gives a copy of an open document's text, by its path or its real
// path. While notifications of it are held back it waits for them (at
// most gapWait); a lost document's view has lost set and no text.
func (o *overlay) get(path string) (view, bool) {
	d, ok := o.settled(path)
	if !ok {
		return view{}, false
	}
	defer o.mu.Unlock()
	if d.seq.lost != "" {
		return view{uri: d.uri, path: d.path, real: d.real, looped: d.looped, version: d.version, lost: unknownError(d)}, true
	}
	return view{uri: d.uri, path: d.path, real: d.real, looped: d.looped, version: d.version, data: bytes.Clone(d.text.b)}, true
}

// settled finds an open document with no notification held back (waiting
// for the hold to end), and returns with o.mu held when it is found.
func (o *overlay) settled(path string) (*document, bool) {
	o.mu.Lock()
	for {
		d := o.byPath[path]
		if d == nil {
			o.mu.Unlock()
			return nil, false
		}
		wait := d.seq.waiting()
		if wait == nil {
			return d, true
		}
		o.mu.Unlock()
		select {
		case <-wait:
		case <-time.After(2 * o.gapWait): // expire ends it; this only bounds a stuck timer
			o.mu.Lock()
			o.expireLocked(d, d.seq.gen)
			o.mu.Unlock()
		}
		o.mu.Lock()
	}
}

// unknownError is what a read or an edit of an unknown document is told:
// how to make the editor send its whole text again.
func unknownError(d *document) error {
	return fmt.Errorf("eukhe does not know the text of %s in the editor now (%s): reads and edits of it are refused until the editor sends its whole text again. "+
		"To re-sync, save it and reload it there (in Vim :w then :e!; in other editors close it and open it again); an editor that sends the whole text with each change (Vim's yegappan/lsp) re-syncs it at its next change", d.path, d.seq.lost)
}

// version is an open document's version, without waiting on a hold (-1
// when it is not open).
func (o *overlay) version(path string) int32 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if d := o.byPath[path]; d != nil {
		return d.version
	}
	return -1
}

// ordered tells whether the client tells its changes in order: known
// (saysInOrder), or seen (versions with gaps, never reordered;
// sequence.go). Only the landing uses it, never the text's order.
func (o *overlay) ordered() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.inOrder || o.num.inOrderWithGaps()
}

// setInOrder says the client is known to tell its changes in order.
func (o *overlay) setInOrder(v bool) {
	o.mu.Lock()
	o.inOrder = v
	o.mu.Unlock()
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
