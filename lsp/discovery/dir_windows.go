package discovery

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// maxSocketPath is the longest path an AF_UNIX socket can have on
// Windows (sun_path is 108 bytes there too, as on Linux).
const maxSocketPath = 107

// shortDir leaves the directory as it is: a path too long for a socket is
// refused by ListenEntry with a message naming XDG_RUNTIME_DIR.
func shortDir(dir string) string { return dir }

// defaultDir is the directory when XDG_RUNTIME_DIR is unset:
// %LOCALAPPDATA%\eukhe\run, inside the user's own profile. AF_UNIX
// sockets work there from Windows 10 1803 on, and Go's net package speaks
// "unix" on Windows.
func defaultDir(env map[string]string) string {
	base := env["LOCALAPPDATA"]
	if !filepath.IsAbs(base) {
		if d, err := os.UserCacheDir(); err == nil {
			base = d
		} else {
			base = os.TempDir()
		}
	}
	return filepath.Join(base, "eukhe", "run")
}

// makeDir makes the directory and its parent (the eukhe directory in
// LOCALAPPDATA may not exist yet).
func makeDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return nil
}

// ownedByUser is not checked on Windows: the owner is in the directory's
// security descriptor, which the standard library does not read, and the
// directory is made inside the user's own profile (LOCALAPPDATA), whose
// ACL lets no other user in. An XDG_RUNTIME_DIR the user set is the
// user's choice.
func ownedByUser(os.FileInfo) bool { return true }

// private is not checked on Windows: Go reports 0777 for every writable
// directory (mode bits do not express an ACL); the profile's ACL keeps
// other users out.
func private(os.FileInfo) bool { return true }

// chmodSocket does nothing: a file's mode on Windows is only its
// read-only attribute, which a socket must not have.
func chmodSocket(string) error { return nil }

// wsaeconnrefused is WSAECONNREFUSED, what a dial of a socket nobody
// listens on gives on Windows (the syscall package has no name for it).
const wsaeconnrefused syscall.Errno = 10061

// refused tells whether a dial failed because nothing listens on the
// socket any more (a stale file).
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, wsaeconnrefused)
}

// processQueryLimitedInformation is PROCESS_QUERY_LIMITED_INFORMATION,
// enough to read an exit code, and granted for more processes than
// PROCESS_QUERY_INFORMATION.
const processQueryLimitedInformation = 0x1000

// stillActive is STILL_ACTIVE, the exit code of a running process.
const stillActive = 259

// alive tells whether a process with this pid runs: it opens, and its
// exit code is STILL_ACTIVE. A process that may not be opened exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, syscall.ERROR_ACCESS_DENIED)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
