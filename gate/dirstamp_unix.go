//go:build unix

package gate

import "syscall"

// dirStampOf is the directory at path's stamp (CommandList): its
// identity and status change time (links followed: a PATH entry may be
// one), which no one can set back as a modification time can be (touch
// -d, cp -p, tar x); the zero stamp when it is no directory or cannot be
// looked at.
func dirStampOf(path string) dirStamp {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return dirStamp{}
	}
	return dirStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), changed: changedAt(&st)}
}
