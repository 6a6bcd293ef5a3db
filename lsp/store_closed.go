package lsp

import (
	"path/filepath"

	"github.com/eukhe/eukhe/docs"
)

// The editor Store gives every file not open in the editor to the disk
// store, with the disk's protections: the documents gate hands docs a real
// path it judged, and docs reads it through Store.ReadNoLinks and walks
// through Store.OpenTree, which every docs.Store has (the compiler holds
// this store to them). A closed file is read, listed and walked by the
// disk's no-follow reads (openat2, no link on any part), so a link
// swapped in after the judgment is refused as on the disk; an open
// document (judged: realpath.go) is served at exactly the path asked.
//
// Begin is docs.NoBatch: the disk's batch would write temp files for a
// commit the editor's publisher makes (publisher.go), which runs the same
// engine with the disk as the publisher of every closed file, so an
// editor commit loses only the early temp files, not a check.

// Begin writes nothing early (see above).
func (st *store) Begin([]string) docs.Batch { return docs.NoBatch }

// ReadNoLinks is an open document's text, else the disk's read of a path
// none of whose parts is a link.
func (st *store) ReadNoLinks(path string) (docs.Snapshot, error) {
	v, ok, err := st.doc(path)
	if !ok {
		return st.s.disk.ReadNoLinks(path)
	}
	return st.openSnap(v, err)
}

// ListNoLinks is the disk's listing of a directory none of whose parts is
// a link, with the open documents not saved yet.
func (st *store) ListNoLinks(dir string) ([]docs.Entry, error) {
	es, err := st.s.disk.ListNoLinks(dir)
	return st.withOpen(dir, es, err)
}

// OpenTree opens the disk's tree of dir; its reads serve open documents
// from the editor.
func (st *store) OpenTree(dir string, real bool) (docs.Tree, error) {
	t, err := st.s.disk.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return &editorTree{st: st, dir: dir, disk: t}, nil
}

// editorTree is a disk Tree with the editor's open documents over it.
type editorTree struct {
	st   *store
	dir  string
	disk docs.Tree
}

func (t *editorTree) abs(rel string) string { return filepath.Join(t.dir, filepath.FromSlash(rel)) }

func (t *editorTree) Read(rel string) (docs.Snapshot, error) {
	if v, ok, err := t.st.doc(t.abs(rel)); ok {
		return t.st.openSnap(v, err)
	}
	return t.disk.Read(rel)
}

func (t *editorTree) Stat(rel string) (docs.Stat, error) {
	if v, ok, err := t.st.doc(t.abs(rel)); ok {
		if err != nil {
			return docs.Stat{}, err
		}
		return t.st.openStat(v.real, len(v.data)), nil
	}
	return t.disk.Stat(rel)
}

func (t *editorTree) List(rel string) ([]docs.Entry, error) {
	es, err := t.disk.List(rel)
	return t.st.withOpen(t.abs(rel), es, err)
}

func (t *editorTree) Close() error { return t.disk.Close() }
