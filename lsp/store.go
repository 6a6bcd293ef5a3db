package lsp

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// store is the editor Store (DESIGN.md §4): an open document's text is the
// truth, unsaved changes included; any other path is the disk's, with the
// disk's protections (store_closed.go: the no-follow reads and trees the
// headless tools get). An open document is handed out only
// while its name resolves to the real path it had at didOpen
// (realpath.go).
type store struct{ s *Server }

var _ docs.Store = (*store)(nil)

// doc is the open document at exactly path (its name, or its real path at
// didOpen), judged: an error when its name resolves elsewhere now, or its
// text is not known.
func (st *store) doc(path string) (view, bool, error) {
	v, ok := st.s.ov.get(filepath.Clean(path))
	if !ok {
		return view{}, false, nil
	}
	if v.lost != nil {
		return v, true, v.lost
	}
	if err := st.s.ov.judge(v); err != nil {
		return v, true, err
	}
	return v, true, nil
}

// Read gives an open document's text (a copy), else the disk's bytes.
func (st *store) Read(path string) (docs.Snapshot, error) {
	v, ok, err := st.doc(path)
	if !ok {
		return st.s.disk.Read(path)
	}
	return st.openSnap(v, err)
}

// openSnap is an open document's snapshot.
func (st *store) openSnap(v view, err error) (docs.Snapshot, error) {
	if err != nil {
		return docs.Snapshot{}, err
	}
	return docs.Snapshot{Data: v.data, Stat: st.openStat(v.real, len(v.data))}, nil
}

// Stat tells of an open document from its text (it exists, even unsaved),
// else of the disk's file.
func (st *store) Stat(path string) (docs.Stat, error) {
	if v, ok, err := st.doc(path); ok {
		if err != nil {
			return docs.Stat{}, err
		}
		return st.openStat(v.real, len(v.data)), nil
	}
	return st.s.disk.Stat(path)
}

// openStat is an open document's Stat: the disk file's mode and time when
// there is one, its own size.
func (st *store) openStat(path string, size int) docs.Stat {
	ds, err := st.s.disk.Stat(path)
	if err != nil || !ds.Exists || ds.Dir {
		ds = docs.Stat{Mode: 0o644}
	}
	ds.Exists, ds.Dir, ds.Size = true, false, int64(size)
	return ds
}

// List gives the disk's entries of dir, with the open documents in it that
// are not saved to disk yet.
func (st *store) List(dir string) ([]docs.Entry, error) {
	es, err := st.s.disk.List(dir)
	return st.withOpen(dir, es, err)
}

// withOpen adds to a directory's entries on disk the open documents in it
// not saved yet (those whose name still resolves as at didOpen).
func (st *store) withOpen(dir string, es []docs.Entry, err error) ([]docs.Entry, error) {
	var extra []string
	for _, name := range st.s.ov.in(filepath.Clean(dir)) {
		if _, ok, derr := st.doc(filepath.Join(dir, name)); ok && derr == nil {
			extra = append(extra, name)
		}
	}
	if err != nil {
		if len(extra) == 0 {
			return nil, err
		}
		es = nil
	}
	for _, name := range extra {
		if !slices.ContainsFunc(es, func(e docs.Entry) bool { return e.Name == name }) {
			es = append(es, docs.Entry{Name: name})
		}
	}
	slices.SortFunc(es, func(a, b docs.Entry) int { return strings.Compare(a.Name, b.Name) })
	return es, nil
}

// Commit publishes a checked change set through the editor and the disk
// (commit.go). Edits reach the editor one commit at a time (commitMu);
// a commit none of whose files is open in the editor goes to the disk
// without waiting for them, so an editor that sits on an applyEdit (or is
// stopped) delays only the edits of its own documents. Should one of its
// files be opened meanwhile, the editor's publisher refuses it (retry).
func (st *store) Commit(cs []docs.Change) docs.Committed {
	if !st.s.touchesOpen(cs) {
		return st.s.commit(cs, true, true)
	}
	st.s.commitMu.Lock()
	defer st.s.commitMu.Unlock()
	return st.s.commit(cs, true, false)
}
