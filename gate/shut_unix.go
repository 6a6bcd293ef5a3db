//go:build unix

package gate

import (
	"os"

	"golang.org/x/sys/unix"
)

// DirShut tells whether the directory at path, whose status (lstat) is
// st, is shut to this user: it is the user's own (its owner is this
// process's effective user) and the user may not both list and search it
// (mode 000, r--, -wx, --x, or an ACL that denies the owner). What is in
// it is not known, and a process running as the user may open it again
// (chmod), so a search for a file's other names that met it did not see
// everything (the link walk's blind, linkwalk_unix.go) and a map of the
// protected names below a root does not know what is in it (the
// protected tree's shut, agent/shell). Another user's directory, which no
// step can open either, is not shut.
//
// This is the one rule both use. The kernel decides, as it would for a
// step: faccessat(path, R_OK|X_OK, AT_EACCESS), which honours the mode
// bits, the ACLs (POSIX ACLs on Linux; macOS's extended ACLs, which can
// deny the owner whatever the bits say) and root's capabilities. It costs
// one system call that resolves path again (about a microsecond), so a
// walk asks it only of a directory it failed to read, or that MayBeShut
// says may be shut.
func DirShut(path string, st *unix.Stat_t) bool {
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Geteuid() {
		return false
	}
	return unix.Faccessat(unix.AT_FDCWD, path, unix.R_OK|unix.X_OK, unix.AT_EACCESS) != nil
}
