//go:build unix

package discovery

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// defaultDir is the directory when XDG_RUNTIME_DIR is unset:
// <temp>/eukhe-<uid>, which Check then holds to the user and mode 0700.
func defaultDir(map[string]string) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("eukhe-%d", os.Getuid()))
}

// makeDir makes the directory 0700; one already there is Check's to judge.
func makeDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return nil
}

// ownedByUser tells whether the user owns the directory: another user's
// directory could hold a server planted to answer in the editor's name.
func ownedByUser(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// private tells whether no one but the owner may enter the directory.
func private(fi os.FileInfo) bool { return fi.Mode().Perm()&0o077 == 0 }

// chmodSocket gives the socket mode 0600.
func chmodSocket(sock string) error { return os.Chmod(sock, 0o600) }

// refused tells whether a dial failed because nothing listens on the
// socket any more (a stale file).
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// alive tells whether a process with this pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
