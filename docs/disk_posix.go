//go:build !windows

package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// Read reads a path into a pooled buffer (files up to the snapshot limit).
func (d *Disk) Read(path string) (Snapshot, error) {
	// Raw system calls: a grep reads thousands of files, and os.File's
	// poller registration and finalizer cost more than the read itself.
	// O_NONBLOCK keeps a FIFO from blocking the open.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	since := coarseNow() // before the file is looked at: see Stamp
	snap, err := readFD(fd, func() string { return path }, 0)
	snap.Stamp = snap.Stamp.settle(since, fineClock(fd))
	return snap, err
}

// readFD reads an open file into a pooled buffer; path names it in an
// error (made only then: a walk reads thousands of files).
//
// With limit > 0, a file larger than limit is not read: its Stat comes
// back with ErrOverLimit (a walk skips it without holding its bytes).
func readFD(fd int, path func() string, limit int64) (Snapshot, error) {
	var sys syscall.Stat_t
	if err := syscall.Fstat(fd, &sys); err != nil {
		return Snapshot{}, &fs.PathError{Op: "stat", Path: path(), Err: err}
	}
	st := statOf(&sys)
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
	first := true
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			if bp != nil {
				putPooled(&readPool, bp, buf)
			}
			return Snapshot{}, &fs.PathError{Op: "read", Path: path(), Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 || (first && int64(n) == st.Size && st.Size > 0) {
			// One read that gave the size fstat said is the file as it
			// was then: no second read to see the end.
			break
		}
		first = false
	}
	var stamp Stamp
	if int64(len(buf)) == st.Size {
		stamp = stampOf(&sys) // else the file changed while it was read
	}
	st.Size = int64(len(buf))
	return Snapshot{Data: buf, Stat: st, Stamp: stamp, pooled: bp}, nil
}

// statOf is the Stat of a stat(2) answer.
func statOf(s *syscall.Stat_t) Stat {
	mode := fs.FileMode(s.Mode & 0o777)
	switch s.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if s.Mode&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if s.Mode&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if s.Mode&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return Stat{
		Exists: true, Dir: mode.IsDir(), Mode: mode, Size: s.Size,
		MTime: statMTime(s), Links: uint64(s.Nlink),
	}
}

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
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
	for _, dir := range dirs {
		if fault != nil {
			if err := fault("lock", dir); err != nil {
				unlock()
				return nil, owner[dir], fmt.Errorf("could not lock %s: %v", dir, err)
			}
		}
		// O_DIRECTORY: a directory swapped for a FIFO since it was found
		// is refused, not waited on.
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		var f *os.File
		if err == nil {
			f = os.NewFile(uintptr(fd), dir)
			err = syscall.Flock(fd, syscall.LOCK_EX)
			if err != nil {
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

// untouched tells that no other process can have opened the temp file
// since it was made: it still has no mode (a process of this user must
// chmod it first to open it: root, which needs not, is not stopped) and
// no other name. Checked right before it is published.
func (t *tempFile) untouched() error {
	if t.linked {
		return nil
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(int(t.f.Fd()), &st); err != nil {
		return err
	}
	if st.Mode&0o7777 != 0 || st.Nlink != 1 {
		return fmt.Errorf("another program changed its temp file %s during the edit (mode %04o, %d names), so what it holds may not be the edit: nothing of it was written", filepath.Base(t.made), st.Mode&0o7777, st.Nlink)
	}
	return nil
}
