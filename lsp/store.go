package lsp

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// store is the editor Store (DESIGN.md §4): an open document's text is the
// truth, unsaved changes included; any other path is the disk's.
type store struct{ s *Server }

// Read gives an open document's text (a copy), else the disk's bytes.
func (st *store) Read(path string) (docs.Snapshot, error) {
	v, ok := st.s.ov.get(filepath.Clean(path))
	if !ok {
		return st.s.disk.Read(path)
	}
	if v.lost != nil {
		return docs.Snapshot{}, v.lost
	}
	stat := st.openStat(path, len(v.data))
	return docs.Snapshot{Data: v.data, Stat: stat}, nil
}

// Stat tells of an open document from its text (it exists, even unsaved),
// else of the disk's file.
func (st *store) Stat(path string) (docs.Stat, error) {
	if n, ok, err := st.s.ov.size(filepath.Clean(path)); ok {
		if err != nil {
			return docs.Stat{}, err
		}
		return st.openStat(path, n), nil
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
	extra := st.s.ov.in(filepath.Clean(dir))
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
// (commit.go).
func (st *store) Commit(cs []docs.Change) docs.Committed {
	st.s.commitMu.Lock()
	defer st.s.commitMu.Unlock()
	return st.s.commit(cs, true)
}
