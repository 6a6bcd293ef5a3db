package transcript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// Windows cannot lock a directory: a transcript directory's lock is a
// byte range lock (LockFileEx) on its file held.lock, shared while its
// session is open, exclusive (without waiting) by a prune or a listing
// that asks whether a session holds it. A prune that takes it releases it
// before it removes the directory (an open file's directory cannot be
// removed there): a session that opens the directory in that instant is
// not one this prune would have removed (its id is new).

const lockName = "held.lock"

func lockFileRange(f *os.File, flags uint32) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
}

func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFileRange(f, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func tryLockDir(dir string) (unlock func(), held, missing bool, err error) {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil, false, errors.Is(err, fs.ErrNotExist), err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, false, err
	}
	if lockFileRange(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY) != nil {
		f.Close()
		return nil, true, false, nil
	}
	return func() { f.Close() }, false, false, nil
}

// removeLocked removes a transcript directory whose lock tryLockDir took:
// the lock is released first (its file is in the directory).
func removeLocked(dir string, unlock func()) bool {
	unlock()
	return os.RemoveAll(dir) == nil
}
