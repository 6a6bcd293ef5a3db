package shell

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// renameOutOfUse renames path to a new name beside it, never replacing an
// entry (renameatx_np with RENAME_EXCL) and never following a link as the
// last part of its directory (macOS has no openat2 to refuse one on the
// way). It runs only after a confined process (refuseMade), and macOS
// has no mechanism yet (detect_darwin.go): it is here for Seatbelt.
func renameOutOfUse(path, id string) (string, error) {
	dir, name := filepath.Dir(path), filepath.Base(path)
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", fmt.Errorf("its directory cannot be opened without following a link: %v", err)
	}
	defer unix.Close(fd)
	for {
		to := name + refusedSuffix + id + "-" + randomTail()
		err := unix.RenameatxNp(fd, name, fd, to, unix.RENAME_EXCL)
		if err == unix.EACCES || err == unix.EPERM {
			err = inWritableDir(fd, func() error { return unix.RenameatxNp(fd, name, fd, to, unix.RENAME_EXCL) })
		}
		if err == nil {
			if k, ok := keyOf(filepath.Join(dir, to)); ok {
				renamedOut.Store(k, filepath.Join(dir, to))
			}
			return filepath.Join(dir, to), nil
		}
		if err != unix.EEXIST {
			return "", err
		}
	}
}
