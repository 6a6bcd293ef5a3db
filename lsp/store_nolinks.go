package lsp

import (
	"path/filepath"

	"github.com/eukhe/eukhe/docs"
)

// The editor store gives every file that is not open the disk store's own
// protections (issue: "a file that is not open, reached through the
// editor's store, is opened by path"): a read of a real path the gate
// judged opens it with no symbolic link on the way (docs.NoLinkReader),
// and a walk (grep, glob) opens each entry beneath the walked directory's
// descriptor (docs.TreeOpener), as the headless tools do. An open
// document is still served from the editor's text, its name judged again
// (realpath.go).

// ReadNoLinks is Read for a real path the gate judged: an open document's
// text, else the disk's file read with no link on the way.
func (st *store) ReadNoLinks(path string) (docs.Snapshot, error) {
	if snap, ok, err := st.readOpen(path); ok {
		return snap, err
	}
	return st.s.disk.ReadNoLinks(path)
}

// ListNoLinks is List for a real directory the gate judged, listed with
// no link on the way.
func (st *store) ListNoLinks(dir string) ([]docs.Entry, error) {
	es, err := st.s.disk.ListNoLinks(dir)
	return st.withOpen(dir, es, err)
}

// OpenTree opens a walk of dir on the disk's tree, with the open
// documents below it served from the editor.
func (st *store) OpenTree(dir string, real bool) (docs.Tree, error) {
	t, err := st.s.disk.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return &editorTree{Tree: t, dir: filepath.Clean(dir), st: st}, nil
}

// readOpen reads an open document of path; ok is false when none is open
// there.
func (st *store) readOpen(path string) (docs.Snapshot, bool, error) {
	v, ok := st.s.ov.get(filepath.Clean(path))
	if !ok {
		return docs.Snapshot{}, false, nil
	}
	if v.lost != nil {
		return docs.Snapshot{}, true, v.lost
	}
	return docs.Snapshot{Data: v.data, Stat: st.openStat(path, len(v.data))}, true, nil
}

// editorTree is a disk Tree whose open documents are the editor's.
type editorTree struct {
	docs.Tree
	dir string
	st  *store
}

func (t *editorTree) abs(rel string) string {
	if rel == "" || rel == "." {
		return t.dir
	}
	return filepath.Join(t.dir, filepath.FromSlash(rel))
}

func (t *editorTree) Read(rel string) (docs.Snapshot, error) {
	if snap, ok, err := t.st.readOpen(t.abs(rel)); ok {
		return snap, err
	}
	return t.Tree.Read(rel)
}

func (t *editorTree) Stat(rel string) (docs.Stat, error) {
	abs := t.abs(rel)
	if n, ok, err := t.st.s.ov.size(abs); ok {
		if err != nil {
			return docs.Stat{}, err
		}
		return t.st.openStat(abs, n), nil
	}
	return t.Tree.Stat(rel)
}

func (t *editorTree) List(rel string) ([]docs.Entry, error) {
	es, err := t.Tree.List(rel)
	return t.st.withOpen(t.abs(rel), es, err)
}
