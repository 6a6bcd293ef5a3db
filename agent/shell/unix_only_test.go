package shell

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// unixPrograms skips, on Windows, a test whose steps run Unix programs
// by their Unix names (sh, sleep, cat, ...) or name Unix paths (/proc,
// /dev/fd): a Windows PATH holds them only with Git for Windows' tools,
// and Wine's has none. What it tests of the shell itself runs on Linux;
// the Windows parts (PATHEXT, Job objects, NUL) have tests of their own.
func unixPrograms(t testing.TB, what string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skipf("Windows: the test runs %s, Unix programs or paths that Windows (and Wine here) lacks", what)
	}
}

// needLinks skips a test that makes symlinks where the system makes
// none: Wine 8's CreateSymbolicLink says it made one and makes none.
func needLinks(t testing.TB) {
	t.Helper()
	d := t.TempDir()
	l := filepath.Join(d, "l")
	err := os.Symlink(d, l)
	if err == nil {
		if fi, lerr := os.Lstat(l); lerr != nil || fi.Mode()&os.ModeSymlink == 0 {
			err = os.ErrNotExist
		}
	}
	if err != nil {
		t.Skipf("this system makes no symlink (%v); Wine: Wine 8's CreateSymbolicLink says it made one and makes none", err)
	}
}
