package gate

import (
	"os"

	"golang.org/x/sys/unix"
)

// MayBeShut is DirShut's cheap pre-check, from the status alone: false
// when the directory st is certainly not shut, so a walk that lists
// every directory asks DirShut (a system call) only of the few it says
// true of. On Linux that is a directory of the user's whose owner bits
// lack read or search: a POSIX ACL cannot deny the owner more than the
// owner bits (its owner entry is those bits).
func MayBeShut(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFDIR && st.Mode&0o500 != 0o500 && int(st.Uid) == os.Geteuid()
}
