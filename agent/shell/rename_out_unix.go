//go:build linux || darwin

package shell

import (
	"os"

	"golang.org/x/sys/unix"
)

// inWritableDir runs rename in the directory fd with its owner's write and
// search bits set, when the directory is the user's and lacks one of them,
// then gives it its mode back; otherwise it is rename's first refusal
// again (EACCES). A step that makes a protected entry and then its
// directory read-only (chmod 555: the twentieth red team's) could keep
// the entry at its name, where git or the editor runs it: a process
// running as the user could give the bit back itself, so eukhe does, for
// the rename alone. Whatever the step's processes still running could do
// in that moment, they could have done (the directory is theirs to chmod).
func inWritableDir(fd int, rename func() error) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return unix.EACCES
	}
	mode := uint32(st.Mode) & 0o7777
	want := mode | 0o300
	if st.Uid != uint32(os.Geteuid()) || want == mode {
		return unix.EACCES // not the user's, or not its bits that refuse
	}
	if err := unix.Fchmod(fd, want); err != nil {
		return unix.EACCES
	}
	err := rename()
	_ = unix.Fchmod(fd, mode) // the mode the step left, as it was
	return err
}

// giveOwnerSight adds the owner's read and search bits to the user's own
// directory at path (not followed if a link); false when it is not the
// user's or the mode cannot be changed.
func giveOwnerSight(path string) bool {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Uid != uint32(os.Geteuid()) {
		return false
	}
	return unix.Chmod(path, uint32(st.Mode)&0o7777|0o500) == nil
}
