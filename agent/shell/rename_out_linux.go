package shell

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// renameOutOfUse renames path to a new name beside it, never replacing an
// entry and never following a link to its directory.
func renameOutOfUse(path, id string) (string, error) {
	dir, name := filepath.Dir(path), filepath.Base(path)
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err == unix.ENOSYS { // a kernel before openat2: the last part at least
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return "", fmt.Errorf("its directory cannot be opened without following a link: %v", err)
	}
	defer unix.Close(fd)
	// The tail is random (the fifth red team filled the next names of a
	// sequence it had seen, so none was free): a step cannot guess it,
	// and a name taken anyway only makes it draw again.
	for {
		to := name + refusedSuffix + id + "-" + randomTail()
		err := unix.Renameat2(fd, name, fd, to, unix.RENAME_NOREPLACE)
		if err == unix.EACCES || err == unix.EPERM {
			err = inWritableDir(fd, func() error { return unix.Renameat2(fd, name, fd, to, unix.RENAME_NOREPLACE) })
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
