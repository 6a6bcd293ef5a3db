//go:build !windows

package transcript

import (
	"errors"
	"os"
	"syscall"
)

// A transcript directory is locked by flock on the directory itself:
// shared while its session is open, exclusive (without waiting) by a
// prune or a listing that asks whether a session holds it.

func openDirNoFollow(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
}

// lockDir takes a shared lock on a transcript directory for as long as
// its session keeps the file open (Remove cannot take it then).
func lockDir(dir string) (*os.File, error) {
	f, err := openDirNoFollow(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// tryLockDir tries to take a transcript directory's lock exclusively,
// without waiting: held when an open session holds it, missing when the
// directory is not there; unlock releases a lock taken.
func tryLockDir(dir string) (unlock func(), held, missing bool, err error) {
	f, err := openDirNoFollow(dir)
	if err != nil {
		return nil, false, errors.Is(err, syscall.ENOENT), err
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, true, false, nil
	}
	return func() { f.Close() }, false, false, nil
}

// removeLocked removes a transcript directory whose lock tryLockDir took,
// holding the lock until it is gone.
func removeLocked(dir string, unlock func()) bool {
	defer unlock()
	return os.RemoveAll(dir) == nil
}
