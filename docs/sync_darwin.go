package docs

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncData makes a file's bytes durable (S8.1). On darwin fsync(2) only
// hands them to the drive, whose cache may lose them at a power cut:
// F_FULLFSYNC asks the drive to write them to its medium. A file system
// that does not support it (some network ones) gets fsync.
func syncData(f *os.File) error {
	if _, err := unix.FcntlInt(f.Fd(), unix.F_FULLFSYNC, 0); err == nil {
		return nil
	}
	return unix.Fsync(int(f.Fd()))
}
