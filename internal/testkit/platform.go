package testkit

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// The limits of a system a test cannot run past: each ends the test with
// a skip that says why, on the system that has the limit only (Windows,
// and Wine there); elsewhere a failure to do what the test needs fails
// it. They are not Missing tools: no install makes them work, so
// EUKHE_REQUIRE_TOOLS does not turn them into failures.

// UnixPrograms skips, on Windows, a test whose steps run Unix programs by
// their Unix names (sleep, seq, cat, sh, …) or name Unix paths: a Windows
// PATH holds them only with Git for Windows' tools, and Wine's has none.
// what names them.
func UnixPrograms(t testing.TB, what string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skipf("Windows: the test runs %s, Unix programs that Windows (and Wine here) lacks", what)
	}
}

// HardLinkSearch skips, on Windows, a test of the gate's search for the
// other names hard links give a secret or protected file: the gate finds
// them by Unix inode only (guide/platforms.md, "Known gaps on Windows").
func HardLinkSearch(t testing.TB) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows: the gate finds a file's other names made by hard links by Unix inode only (a known gap), so this search has nothing to find")
	}
}

var symlinks, unixSockets struct {
	once sync.Once
	err  error
}

// NeedSymlinks skips a test that makes symbolic links where the system
// makes none: Wine 8's CreateSymbolicLink says it made one and makes
// none (a real Windows makes them in developer mode or as an
// administrator).
func NeedSymlinks(t testing.TB) {
	t.Helper()
	symlinks.once.Do(func() {
		dir, err := os.MkdirTemp("", "eukhe-symlink")
		if err != nil {
			symlinks.err = err
			return
		}
		defer os.RemoveAll(dir)
		link := filepath.Join(dir, "link")
		if err := os.Symlink(dir, link); err != nil {
			symlinks.err = err
		} else if fi, err := os.Lstat(link); err != nil {
			symlinks.err = err
		} else if fi.Mode()&os.ModeSymlink == 0 {
			symlinks.err = os.ErrInvalid
		}
	})
	if symlinks.err != nil {
		skipOnWindows(t, "this system makes no symlink (%v); Wine 8's CreateSymbolicLink says it made one and makes none", symlinks.err)
	}
}

// NeedUnixSockets skips a test that listens on a Unix socket where the
// system has none: Wine 8 has no AF_UNIX (socket: WSAEAFNOSUPPORT), nor
// Windows before 10 1803. eukhe's own sockets there (the approvals and
// discovery endpoints) need AF_UNIX too (guide/platforms.md).
func NeedUnixSockets(t testing.TB) {
	t.Helper()
	unixSockets.once.Do(func() {
		dir, err := os.MkdirTemp("", "eu")
		if err != nil {
			unixSockets.err = err
			return
		}
		defer os.RemoveAll(dir)
		ln, err := net.Listen("unix", filepath.Join(dir, "s"))
		if err != nil {
			unixSockets.err = err
			return
		}
		ln.Close()
	})
	if unixSockets.err != nil {
		skipOnWindows(t, "this system has no Unix sockets (%v); Wine 8 has no AF_UNIX, nor Windows before 10 1803", unixSockets.err)
	}
}

// skipOnWindows skips with the reason on Windows and fails elsewhere:
// every Unix this runs on has what the test needs.
func skipOnWindows(t testing.TB, format string, a ...any) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skipf(format, a...)
	}
	t.Fatalf(format, a...)
}
