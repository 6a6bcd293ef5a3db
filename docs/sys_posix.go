//go:build !windows

package docs

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysFD is an open file of the system's own calls: a descriptor here.
type sysFD = int

// badFD is no open file.
const badFD = -1

// oNoFollow and oNonBlock are os.OpenFile's flags for no link at the last
// part and no wait on a FIFO.
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// The locks of lockFile: exclusive, shared, and failing at once.
const (
	lockEx = syscall.LOCK_EX
	lockSh = syscall.LOCK_SH
	lockNB = syscall.LOCK_NB
)

// lockFile takes a lock of an open file (flock: only eukhe's writers
// honour it; S8.5's sweep and the journal's finders test it).
func lockFile(f *os.File, how int) error { return syscall.Flock(int(f.Fd()), how) }

// closeFD closes an open file.
func closeFD(fd sysFD) error { return syscall.Close(fd) }

// fchmodFD gives an open file a mode.
func fchmodFD(fd sysFD, mode uint32) error { return syscall.Fchmod(fd, mode) }

// openFile is os.OpenFile: for a file renamed over or removed while
// it is open (a journal, a kept second name).
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// renameReplace renames from over to in one step (S8.1's atomic replace):
// rename(2).
func renameReplace(from, to string) error { return os.Rename(from, to) }

// unlink removes a name (never a directory).
func unlink(path string) error { return unix.Unlink(path) }

// removeSource removes a moved file's old name (os.Remove: its error
// names the path).
func removeSource(path string) error { return os.Remove(path) }

// owned refuses a journal file another user owns or others may write.
func owned(f *os.File) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if int(st.Uid) != os.Getuid() || st.Mode&0o022 != 0 {
		return fmt.Errorf("it is owned by user %d with mode %04o, not this user's alone", st.Uid, st.Mode&0o777)
	}
	return nil
}

// oneName refuses a journal file with more than one name.
func oneName(f *os.File) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if st.Nlink != 1 {
		return fmt.Errorf("it has %d names: a journal eukhe writes has one", st.Nlink)
	}
	return nil
}

// syncDir makes a directory's entries durable (fsync of the directory).
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
