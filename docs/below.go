package docs

import (
	"errors"
	"path/filepath"
)

// Tree reads below one directory without following any symbolic link on
// the way (G1.5 during a walk): the gate judged the
// directory's real path, so whatever a walk reads must lie below it, even
// when a directory or file of the tree is swapped for a link while the walk
// runs. An entry reached through a link is ErrLinkBelow. rel is a slash
// path under the directory; "" is the directory itself.
type Tree interface {
	// Read reads a file below the tree; one over MaxSnapshotFileBytes may
	// come back unread, its Stat with ErrOverLimit.
	Read(rel string) (Snapshot, error)
	List(rel string) ([]Entry, error)
	Stat(rel string) (Stat, error)
	Close() error
}

// ErrLinkBelow is a path below a Tree's directory that goes through a
// symbolic link: it was not followed.
// ErrOverLimit is a Tree's read of a file over MaxSnapshotFileBytes,
// not read: a walk counts it over the limit without its bytes.
var ErrOverLimit = errors.New("over the 4 MiB limit, not read")

var ErrLinkBelow = errors.New("a symbolic link on the way (made since the gate judged the path?) was not followed")

// below is what a walk reads through: the Store's Tree (Store.OpenTree),
// else the Store by absolute path.
type below struct {
	store Store
	tree  Tree
}

// openBelow opens the reader of a walk of dir; with real set (the gate
// gave dir as the real path it judged), a link on dir itself made since
// is ErrLinkBelow. A Store that cannot open this tree otherwise (dir is
// gone, the kernel lacks openat2, ByPath's ErrNoTree) is read by path.
func openBelow(s Store, dir string, real bool) (*below, error) {
	b := &below{store: s}
	t, err := s.OpenTree(dir, real)
	if errors.Is(err, ErrLinkBelow) {
		return nil, err
	}
	if err == nil {
		b.tree = t
	}
	return b, nil
}

func (b *below) close() {
	if b.tree != nil {
		b.tree.Close()
	}
}

func (b *below) read(abs, rel string) (Snapshot, error) {
	if b.tree != nil {
		return b.tree.Read(rel)
	}
	return b.store.Read(abs)
}

func (b *below) list(abs, rel string) ([]Entry, error) {
	if b.tree != nil {
		return b.tree.List(rel)
	}
	return b.store.List(abs)
}

func (b *below) stat(abs, rel string) (Stat, error) {
	if b.tree != nil {
		return b.tree.Stat(rel)
	}
	return b.store.Stat(abs)
}

// relOS is a rel path as the OS takes it under the tree's directory.
func relOS(rel string) string {
	if rel == "" {
		return "."
	}
	return filepath.FromSlash(rel)
}

// readReal reads the real path the gate gave without following a link
// (Store.ReadNoLinks); by path when no gate judged it (no real path).
func (t *Tools) readReal(real string) (Snapshot, error) {
	if t.Guard != nil {
		return t.Store.ReadNoLinks(real)
	}
	return t.Store.Read(real)
}

// listReal lists the real directory the gate gave, as readReal reads.
func (t *Tools) listReal(real string) ([]Entry, error) {
	if t.Guard != nil {
		return t.Store.ListNoLinks(real)
	}
	return t.Store.List(real)
}
