package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/windows"
)

// diskTree is a Tree on disk: every open below its directory a checked
// walk (openUnder) that refuses a reparse point on the way or at the end
// and a file whose final path is not below the directory's (S8.4; the
// race that remains is openUnder's).
type diskTree struct {
	dir   string
	final string
}

// OpenTree opens dir for reads below it that never follow a link; with
// real, no part of dir itself may be one either.
func (d *Disk) OpenTree(dir string, real bool) (Tree, error) {
	var h windows.Handle
	var err error
	if real {
		h, err = openNoReparse(dir, 0, shareAll, windows.OPEN_EXISTING, 0)
	} else {
		h, err = createFile(dir, 0, shareAll, windows.OPEN_EXISTING, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer windows.CloseHandle(h)
	final, err := finalPath(h)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &diskTree{dir: dir, final: final}, nil
}

func (t *diskTree) open(rel string, access uint32) (windows.Handle, error) {
	h, err := openUnder(t.dir, t.final, relOS(rel), access, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return badFD, &fs.PathError{Op: "open", Path: t.abs(rel), Err: err}
	}
	return h, nil
}

func (t *diskTree) abs(rel string) string { return filepath.Join(t.dir, relOS(rel)) }

// Read is Disk.Read below the tree; a missing path is not an error; a
// file over MaxSnapshotFileBytes is not read (ErrOverLimit).
func (t *diskTree) Read(rel string) (Snapshot, error) {
	h, err := t.open(rel, windows.GENERIC_READ)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, err
	}
	defer windows.CloseHandle(h)
	return readFD(h, func() string { return t.abs(rel) }, MaxSnapshotFileBytes)
}

// Stat stats a path below the tree; a missing path has Exists false.
func (t *diskTree) Stat(rel string) (Stat, error) {
	h, err := t.open(rel, 0)
	if err != nil {
		if isNotExist(err) {
			return Stat{}, nil
		}
		return Stat{}, err
	}
	defer windows.CloseHandle(h)
	info, err := handleInfo(h)
	if err != nil {
		return Stat{}, &fs.PathError{Op: "stat", Path: t.abs(rel), Err: err}
	}
	return statOfInfo(info), nil
}

// List lists a directory below the tree, as Disk.List does: checked,
// then read by path.
func (t *diskTree) List(rel string) ([]Entry, error) {
	h, err := t.open(rel, 0)
	if err != nil {
		return nil, err
	}
	windows.CloseHandle(h)
	return listDir(t.abs(rel))
}

func (t *diskTree) Close() error { return nil }

// listDir lists a directory as Disk.List does, sorted by name; a reparse
// point is a Link.
func listDir(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		e := Entry{Name: de.Name(), Dir: de.IsDir(), Link: de.Type()&(fs.ModeSymlink|fs.ModeIrregular) != 0}
		if e.Link {
			e.Dir = false
			if fi, err := os.Stat(filepath.Join(dir, de.Name())); err == nil {
				e.Dir = fi.IsDir()
			}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// ReadNoLinks is Read of a path none of whose parts is a reparse point
// (openNoReparse).
func (d *Disk) ReadNoLinks(path string) (Snapshot, error) {
	h, err := openNoReparse(path, windows.GENERIC_READ, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	return readFD(h, func() string { return path }, 0)
}

// ListNoLinks is List of a directory none of whose parts is a reparse
// point: checked, then read by path.
func (d *Disk) ListNoLinks(dir string) ([]Entry, error) {
	h, err := openNoReparse(dir, 0, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	windows.CloseHandle(h)
	return listDir(dir)
}
