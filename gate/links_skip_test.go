package gate

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Two limits of this package's tests on Windows, each a skip that says
// why (test/wine/units.sh counts them):
//
//   - needHardLinkSearch: the gate finds another name a hard link gives a
//     secret or protected file by its Unix inode; on Windows it has none
//     and finds no such name (guide/platforms.md, "Known gaps on
//     Windows"), so a test of that search does not apply there.
//   - needSymlinks: a test that makes symlinks needs a system that makes
//     them. Wine 8's CreateSymbolicLink says it made one and makes none; a
//     real Windows makes them (developer mode or an administrator).
//
// On Linux and the other Unix systems neither ever skips.

func needHardLinkSearch(t testing.TB) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows: the gate finds a file's other names made by hard links by Unix inode only (a known gap), so this search has nothing to find")
	}
}

var symlinksMade struct {
	once sync.Once
	err  error
}

func needSymlinks(t testing.TB) {
	t.Helper()
	symlinksMade.once.Do(func() {
		dir, err := os.MkdirTemp("", "eukhe-symlink")
		if err != nil {
			symlinksMade.err = err
			return
		}
		defer os.RemoveAll(dir)
		link := filepath.Join(dir, "link")
		if err := os.Symlink(dir, link); err != nil {
			symlinksMade.err = err
			return
		}
		if fi, err := os.Lstat(link); err != nil {
			symlinksMade.err = err
		} else if fi.Mode()&os.ModeSymlink == 0 {
			symlinksMade.err = os.ErrInvalid
		}
	})
	if symlinksMade.err != nil {
		t.Skipf("this system makes no symlink (%v); Wine: Wine 8's CreateSymbolicLink says it made one and makes none", symlinksMade.err)
	}
}
