package docs

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncData makes a file's bytes durable (S8.1): fsync(2) (the module's
// x/sys has no fdatasync for FreeBSD; fsync writes the metadata too).
func syncData(f *os.File) error { return unix.Fsync(int(f.Fd())) }
