//go:build unix && !linux

package gate

import (
	"os"

	"golang.org/x/sys/unix"
)

// MayBeShut is DirShut's cheap pre-check, from the status alone: false
// when the directory st is certainly not shut. Outside Linux (macOS,
// the BSDs) an extended ACL can deny the owner what the owner bits
// grant, and the status does not say whether a directory has one, so
// every directory of the user's may be shut: a walk asks DirShut (one
// system call) of each.
func MayBeShut(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFDIR && int(st.Uid) == os.Geteuid()
}
