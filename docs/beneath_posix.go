//go:build !windows

package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// errOutside is a path a beneath will not act on: not below its root.
var errOutside = errors.New("it is not below the workspace root: recovery acts only there")

func (b *beneath) close() { unix.Close(b.fd) }

// rel is path below the root, or errOutside: path must be absolute,
// clean and below the root's real path.
func (b *beneath) rel(path string) (string, error) {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return "", errOutside
	}
	rel, err := filepath.Rel(b.root, path)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return "", errOutside
	}
	return rel, nil
}

// open opens the file at path for reading (no link anywhere on it).
func (b *beneath) open(path string) (int, error) {
	rel, err := b.rel(path)
	if err != nil {
		return -1, err
	}
	return b.at(rel, unix.O_RDONLY|unix.O_NONBLOCK)
}

// digest is the digest of the regular file at path: exists false when
// there is none; an error when something else is there (a link, a
// directory, a FIFO) or a link is on the way.
func (b *beneath) digest(path string) (string, bool, error) {
	fd, err := b.open(path)
	if err != nil {
		if isNotExist(err) {
			return "", false, nil
		}
		return "", false, err
	}
	defer unix.Close(fd)
	return digestFD(fd, path)
}

func digestFD(fd int, path string) (string, bool, error) {
	snap, err := readFD(fd, func() string { return path }, 0)
	if err != nil {
		return "", false, err
	}
	defer snap.Release()
	if snap.Stat.Dir {
		return "", false, fmt.Errorf("%s is a directory", path)
	}
	return digestHex(snap.Data), true, nil
}

// temp opens a temp file of a journal and checks that it is one: a
// regular file of this user with no other name (a hard link of another
// file is not a temp file eukhe wrote) holding bytes of digest want. The
// caller publishes exactly this file (linkFD, renameOver) and closes it.
func (b *beneath) temp(path, want string) (int, error) {
	fd, err := b.open(path)
	if errors.Is(err, unix.EACCES) {
		fd, err = b.openModeless(path)
	}
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		err = fmt.Errorf("its temp file %s is not a regular file", filepath.Base(path))
	case st.Nlink != 1:
		err = fmt.Errorf("its temp file %s has %d names (a hard link of another file?)", filepath.Base(path), st.Nlink)
	case int(st.Uid) != os.Getuid():
		err = fmt.Errorf("its temp file %s belongs to user %d", filepath.Base(path), st.Uid)
	}
	if err == nil {
		var d string
		if d, _, err = digestFD(fd, path); err == nil && d != want {
			err = errBytesLost
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

var errBytesLost = errors.New("its bytes are lost")

// renameOver renames the entry from over to (both below the root, no
// link on the way), then checks that to is the file fd: a swap of the
// entry between the check and the rename is reported (what landed is
// then what the swapper put in a directory it may write).
func (b *beneath) renameOver(fd int, from, to string) error {
	fdir, fbase, err := b.parent(from)
	if err != nil {
		return err
	}
	defer unix.Close(fdir)
	tdir, tbase, err := b.parent(to)
	if err != nil {
		return err
	}
	defer unix.Close(tdir)
	if err := unix.Renameat(fdir, fbase, tdir, tbase); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	var want, got unix.Stat_t
	if unix.Fstat(fd, &want) != nil || unix.Fstatat(tdir, tbase, &got, unix.AT_SYMLINK_NOFOLLOW) != nil || want.Ino != got.Ino || want.Dev != got.Dev {
		return fmt.Errorf("its temp file was swapped while recovery ran: %s holds what was put there", filepath.Base(to))
	}
	return nil
}

// remove removes the entry at path (a file; never what a link names).
func (b *beneath) remove(path string) error {
	dir, base, err := b.parent(path)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	if err := unix.Unlinkat(dir, base, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}

// sweep removes the temp files of each target that no writer locks
// (S8.5), as sweepTargets does, through directories opened beneath.
func (b *beneath) sweep(targets []string) {
	byDir := map[string][]string{}
	var dirs []string
	for _, t := range targets {
		rel, err := b.rel(t)
		if err != nil {
			continue
		}
		d := filepath.Dir(rel)
		if _, ok := byDir[d]; !ok {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], filepath.Base(rel))
	}
	for _, d := range dirs {
		fd, err := b.at(d, unix.O_RDONLY|unix.O_DIRECTORY)
		if err != nil {
			continue
		}
		dup, err := unix.Dup(fd)
		if err != nil {
			unix.Close(fd)
			continue
		}
		es, _ := listFD(dup, filepath.Join(b.root, d))
		var names []string
		for _, e := range es {
			if IsTemp(e.Name) {
				names = append(names, e.Name)
			}
		}
		for _, target := range byDir[d] {
			for _, dead := range Sweep(names, target) {
				removeFreeAt(fd, dead)
			}
		}
		unix.Close(fd)
	}
}

// removeModelessAt removes a temp file with no mode yet (tempFile.reveal:
// not even its writer's sweep may open it to test the writer's lock)
// when the process its name says wrote it is gone: a regular file of this
// user with no permission bits, whose writer's pid (TempName) is not this
// process and names no process now. A pid taken again by another process
// keeps it, as a live writer's, until that process ends.
func removeModelessAt(dir int, name string) bool {
	// (this process's own: only those it no longer holds, liveTemps)
	var st unix.Stat_t
	if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil ||
		st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o7777 != 0 {
		return false
	}
	pid, ok := tempWriter(name)
	switch {
	case !ok:
		return false
	case pid == os.Getpid():
		if live(dir, name) {
			return false
		}

	case unix.Kill(pid, 0) != unix.ESRCH:
		return false
	}
	return unix.Unlinkat(dir, name, 0) == nil
}

// removeFreeAt is removeIfFree of the entry name of the directory dir.
func removeFreeAt(dir int, name string) bool {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err == unix.EACCES {
		return removeModelessAt(dir, name)
	}
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st, now unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	if unix.Fstatat(dir, name, &now, unix.AT_SYMLINK_NOFOLLOW) != nil || now.Ino != st.Ino || now.Dev != st.Dev {
		return false
	}
	return unix.Unlinkat(dir, name, 0) == nil
}
