//go:build darwin || freebsd

package docs

import (
	"fmt"
	"syscall"
)

// fileID is what the MAC binds a journal to: the file, not its bytes —
// its device, inode and birth time (a file made again at the same inode
// has another), as statx gives them on Linux.
func fileID(fd int) (string, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d:%d:b:%d.%d", uint64(st.Dev), st.Ino, st.Birthtimespec.Sec, st.Birthtimespec.Nsec), nil
}
