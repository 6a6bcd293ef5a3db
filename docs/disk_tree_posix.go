//go:build !windows

package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// listFD lists an open directory as Disk.List does, and closes it.
func listFD(fd int, dir string) ([]Entry, error) {
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		e := Entry{Name: de.Name(), Dir: de.IsDir(), Link: de.Type()&fs.ModeSymlink != 0}
		if e.Link {
			if fi, err := os.Stat(filepath.Join(dir, de.Name())); err == nil {
				e.Dir = fi.IsDir()
			}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func (t *diskTree) abs(rel string) string { return filepath.Join(t.dir, relOS(rel)) }

// Read is Disk.Read below the tree; a missing path is not an error. A
// file over MaxSnapshotFileBytes is not read: its Stat comes with
// ErrOverLimit (no walk searches it, and a 50 MB file read for nothing on
// every grep kept its bytes in the process's memory).
func (t *diskTree) Read(rel string) (Snapshot, error) {
	fd, err := t.open(rel, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, err
	}
	defer syscall.Close(fd)
	return readFD(fd, func() string { return t.abs(rel) }, MaxSnapshotFileBytes)
}

// List lists a directory below the tree, as Disk.List does.
func (t *diskTree) List(rel string) ([]Entry, error) {
	fd, err := t.open(rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return listFD(fd, t.abs(rel))
}

func (t *diskTree) Close() error { return syscall.Close(t.fd) }

// ReadNoLinks is Read of a path none of whose parts is a link.
func (d *Disk) ReadNoLinks(path string) (Snapshot, error) {
	fd, err := noLinks(path, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, err
	}
	defer syscall.Close(fd)
	return readFD(fd, func() string { return path }, 0)
}

// ListNoLinks is List of a directory none of whose parts is a link.
func (d *Disk) ListNoLinks(dir string) ([]Entry, error) {
	fd, err := noLinks(dir, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return listFD(fd, dir)
}
