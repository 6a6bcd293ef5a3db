//go:build !windows

package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
