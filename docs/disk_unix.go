//go:build darwin || freebsd

package docs

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// holdFile opens a file that a rename will replace, so that the rename
// only unlinks it; it is freed when released (0 when it cannot be held:
// then the rename frees it, as without the hold). With no O_PATH, it is
// opened for reading: a file this user may not read is not held.
func holdFile(path string) int {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	return fd + 1
}

// release closes the holds of changes (holdFile).
func release(ps []*Pending) {
	for _, p := range ps {
		if p.old > 0 {
			unix.Close(p.old - 1)
			p.old = 0
		}
	}
}

// removeIfFree removes a temp file that no live writer locks, and tells
// whether it did (S8.5; disk_linux.go says the rule). Its directory is
// opened as written; the file itself is never reached through a link.
func removeIfFree(path string) bool {
	dir, err := unix.Open(filepath.Dir(path), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(dir)
	return removeFreeAt(dir, filepath.Base(path))
}

// lockTemp takes a writer's lock of a temp file it made (S8.5): flock,
// which a sweep's own flock tests.
func lockTemp(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// startWriteback does nothing here: there is no sync_file_range; the
// sync before publishing (syncData) writes the bytes.
func startWriteback(*os.File) {}
