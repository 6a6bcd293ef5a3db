package docs

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// holdFile opens a file that a rename will replace, so that the rename
// only unlinks it; it is freed when released (0 when it cannot be held:
// then the rename frees it, as without the hold).
func holdFile(path string) int {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	return fd + 1
}

// release closes the holds of changes: for a file a rename replaced, this
// frees its blocks (a tenth of a millisecond and more for each of its
// 100 KB). Finish does it in the background, after the commit.
func release(ps []*Pending) {
	for _, p := range ps {
		if p.old > 0 {
			unix.Close(p.old - 1)
			p.old = 0
		}
	}
}

// removeIfFree removes a temp file that no live writer locks, and tells
// whether it did. It removes the file while it holds the lock itself, so a
// writer that creates a file of that name and locks it meanwhile either
// waits for the removal (and then finds its name gone: it takes another,
// see writeTemp and journal.put) or is not touched. A file it cannot open
// counts as held: a sweep never removes what it cannot check (nor a link
// or anything but a regular file).
func removeIfFree(path string) bool {
	// Never through a link, and never waiting on a FIFO planted under a
	// temp file's name: only a regular file a writer made is a temp file.
	dir, err := unix.Open(filepath.Dir(path), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(dir)
	return removeFreeAt(dir, filepath.Base(path))
}

// lockTemp takes a writer's lock of a temp file it made (S8.5): a
// sweep removes only temp files no writer locks.
func lockTemp(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// startWriteback starts the writeback of a temp file now, without
// waiting: the flushes of every temp file of a commit overlap, and sync
// then mostly waits for writes already under way (git's batch fsync does
// the same).
func startWriteback(f *os.File) {
	_ = unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}

// syncData makes a file's bytes durable (S8.1): fdatasync.
func syncData(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }
