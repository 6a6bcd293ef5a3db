package docs

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fileID is what the MAC binds a journal to: the file, not its bytes.
func fileID(fd int) (string, error) {
	var st unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return "", err
	}
	id := fmt.Sprintf("%d:%d:%d", unix.Mkdev(st.Dev_major, st.Dev_minor), st.Ino, st.Mask&unix.STATX_BTIME)
	if st.Mask&unix.STATX_BTIME != 0 {
		id += fmt.Sprintf(":%d.%d", st.Btime.Sec, st.Btime.Nsec)
	}
	return id, nil
}
