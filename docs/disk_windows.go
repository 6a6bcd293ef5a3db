package docs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/windows"
)

// Read reads a path into a pooled buffer (files up to the snapshot
// limit), following links as it does elsewhere.
func (d *Disk) Read(path string) (Snapshot, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return Snapshot{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ, shareAll, nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	return readFD(h, func() string { return path }, 0)
}

// readFD reads an open file into a pooled buffer, as it does elsewhere
// (disk_posix.go); its stamp is never settled (stampOfInfo).
func readFD(h sysFD, path func() string, limit int64) (Snapshot, error) {
	info, err := handleInfo(h)
	if err != nil {
		return Snapshot{}, &fs.PathError{Op: "stat", Path: path(), Err: err}
	}
	st := statOfInfo(info)
	if st.Dir {
		return Snapshot{Stat: st}, nil
	}
	if !st.Mode.IsRegular() {
		return Snapshot{Stat: st}, fmt.Errorf("%s is not a regular file (%s)", path(), st.Mode.Type())
	}
	if limit > 0 && st.Size > limit {
		return Snapshot{Stat: st}, ErrOverLimit
	}
	var bp *[]byte
	var buf []byte
	if st.Size > MaxSnapshotFileBytes {
		buf = make([]byte, 0, st.Size+512)
	} else {
		bp = readPool.Get().(*[]byte)
		buf = (*bp)[:0]
		if need := int(st.Size) + 512; cap(buf) < need {
			buf = make([]byte, 0, need)
		}
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		var n uint32
		err := windows.ReadFile(h, buf[len(buf):cap(buf)], &n, nil)
		if err == windows.ERROR_HANDLE_EOF || err == windows.ERROR_BROKEN_PIPE {
			err, n = nil, 0
		}
		if err != nil {
			if bp != nil {
				putPooled(&readPool, bp, buf)
			}
			return Snapshot{}, &fs.PathError{Op: "read", Path: path(), Err: err}
		}
		buf = buf[:len(buf)+int(n)]
		if n == 0 {
			break
		}
	}
	var stamp Stamp
	if int64(len(buf)) == st.Size {
		stamp = stampOfInfo(info)
	}
	st.Size = int64(len(buf))
	return Snapshot{Data: buf, Stat: st, Stamp: stamp, pooled: bp}, nil
}

// Unchanged is never true here: no stamp is settled (stampOfInfo), so
// the engine reads the file again and compares its bytes.
func (d *Disk) Unchanged(string, Stamp) (Stat, bool) { return Stat{}, false }

// lockDirs locks, in sorted order, the nearest existing directory of
// every path. Windows locks no directory handle, so each directory's lock
// is a lock file named by a digest of its path (case folded) in the
// user's cache directory: only eukhe writers honour it; the byte check
// catches the others.
func lockDirs(paths []string, fault func(step, path string) error) (unlock func(), failed int, err error) {
	owner := map[string]int{}
	for i, path := range paths {
		dir := existingDir(filepath.Dir(path))
		if _, ok := owner[dir]; !ok {
			owner[dir] = i
		}
	}
	dirs := make([]string, 0, len(owner))
	for dir := range owner {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	var held []*os.File
	unlock = func() {
		for _, f := range held {
			f.Close() // ends its lock
		}
	}
	locks := ""
	if c, err := os.UserCacheDir(); err == nil {
		locks = filepath.Join(c, "eukhe", "locks")
	}
	for _, dir := range dirs {
		if fault != nil {
			if err := fault("lock", dir); err != nil {
				unlock()
				return nil, owner[dir], fmt.Errorf("could not lock %s: %v", dir, err)
			}
		}
		var f *os.File
		err := os.MkdirAll(locks, 0o700)
		if err == nil && locks == "" {
			err = fmt.Errorf("no cache directory for the lock files")
		}
		if err == nil {
			sum := sha256.Sum256([]byte(strings.ToLower(dir)))
			f, err = os.OpenFile(filepath.Join(locks, hex.EncodeToString(sum[:16])), os.O_RDWR|os.O_CREATE, 0o600)
		}
		if err == nil {
			if err = lockFile(f, lockEx); err != nil {
				f.Close()
			}
		}
		if err != nil {
			unlock()
			return nil, owner[dir], fmt.Errorf("could not lock %s: %v", dir, err)
		}
		held = append(held, f)
	}
	return unlock, 0, nil
}

// holdFile holds nothing here (0): a file held open could not be
// replaced (errHeldOpen), so the rename frees the old file itself.
func holdFile(string) int { return 0 }

// release closes the holds of changes: there are none here (holdFile).
func release(ps []*Pending) {
	for _, p := range ps {
		p.old = 0
	}
}

// untouched tells that no other process can have opened the temp file
// since it was made: it was created sharing nothing but its deletion
// (createNoLinks), so none could open it, and it has no other name.
// Checked right before it is published.
func (t *tempFile) untouched() error {
	if t.linked {
		return nil
	}
	info, err := handleInfo(windows.Handle(t.f.Fd()))
	if err != nil {
		return err
	}
	if info.NumberOfLinks != 1 {
		return fmt.Errorf("another program changed its temp file %s during the edit (%d names), so what it holds may not be the edit: nothing of it was written", filepath.Base(t.made), info.NumberOfLinks)
	}
	return nil
}

// createNoLinks creates a new file at a path none of whose parts is a
// reparse point (openNoReparse: the look at each part and the create are
// two steps here), for reading and writing, sharing only its deletion:
// no other process can open it while it is written (the mode 0000 of
// other systems), and it can still be renamed over its target. An
// existing name is fs.ErrExist.
func createNoLinks(path string) (*os.File, error) {
	h, err := openNoReparse(path, windows.GENERIC_READ|windows.GENERIC_WRITE|windows.DELETE, windows.FILE_SHARE_DELETE, windows.CREATE_NEW, windows.FILE_ATTRIBUTE_NORMAL)
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// lockTemp takes a writer's lock of a temp file it made (S8.5).
func lockTemp(f *os.File) error { return lockFile(f, lockEx|lockNB) }

// startWriteback does nothing here; syncData writes the bytes.
func startWriteback(*os.File) {}

// syncData makes a file's bytes durable (S8.1): FlushFileBuffers.
func syncData(f *os.File) error { return windows.FlushFileBuffers(windows.Handle(f.Fd())) }

// removeIfFree removes a temp file that no live writer locks, and tells
// whether it did (S8.5). A live writer's temp file shares nothing, so it
// cannot be opened: held. One that opens is locked, checked to be a
// regular file, not a reparse point, and removed through its handle:
// exactly the file checked.
func removeIfFree(path string) bool {
	h, err := createFile(path, windows.GENERIC_READ|windows.DELETE, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	info, err := handleInfo(h)
	if err != nil || info.FileAttributes&(windows.FILE_ATTRIBUTE_DIRECTORY|windows.FILE_ATTRIBUTE_REPARSE_POINT) != 0 {
		return false
	}
	if lockHandle(h, lockEx|lockNB) != nil {
		return false
	}
	return deleteHandle(h) == nil
}
