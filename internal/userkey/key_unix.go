//go:build !windows

package userkey

import (
	"fmt"
	"os"
	"syscall"
)

const oNoFollow = syscall.O_NOFOLLOW

// ownedAlone refuses a key that is not a regular file of this user's
// alone.
func ownedAlone(f *os.File) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o077 != 0 {
		return fmt.Errorf("it is not a file of this user's alone (mode %04o, user %d): remove it and start eukhe again", st.Mode&0o7777, st.Uid)
	}
	return nil
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}
