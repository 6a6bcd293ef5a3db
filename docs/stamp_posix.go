//go:build !windows

package docs

import "syscall"

// Unchanged tells whether the file at path is still the one a read
// stamped, unwritten since (a settled stamp, the same file, size and
// times: see Stamp), and gives its Stat then. Any other answer is
// false: the engine reads the file again and compares its bytes. It
// follows links as Read does.
func (d *Disk) Unchanged(path string, was Stamp) (Stat, bool) {
	if !was.settled {
		return Stat{}, false
	}
	var sys syscall.Stat_t
	if err := syscall.Stat(path, &sys); err != nil {
		return Stat{}, false
	}
	st := statOf(&sys)
	if !st.Mode.IsRegular() || stampOf(&sys) != was.unsettled() {
		return Stat{}, false
	}
	return st, true
}
