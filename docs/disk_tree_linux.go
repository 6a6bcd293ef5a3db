package docs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// diskTree is a Tree on disk: a descriptor of the directory, and every
// open below it through openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS, so the kernel refuses any symbolic link (and any
// /proc magic link) on the way, atomically with the open.
type diskTree struct {
	fd  int
	dir string
}

// OpenTree opens dir for reads below it that never follow a link. It
// fails when the kernel has no openat2 (before Linux 5.6): the walk then
// reads by path.
func (d *Disk) OpenTree(dir string, real bool) (Tree, error) {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC}
	if real {
		how.Resolve = unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &how)
	switch {
	case err == unix.ELOOP:
		return nil, &fs.PathError{Op: "open", Path: dir, Err: ErrLinkBelow}
	case err != nil:
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &diskTree{fd: fd, dir: dir}, nil
}

func (t *diskTree) open(rel string, flags int) (int, error) {
	how := unix.OpenHow{
		Flags:   uint64(flags | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(t.fd, relOS(rel), &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ELOOP || err == unix.EXDEV:
			return -1, &fs.PathError{Op: "open", Path: t.abs(rel), Err: ErrLinkBelow}
		case err != nil:
			return -1, &fs.PathError{Op: "open", Path: t.abs(rel), Err: err}
		}
		return fd, nil
	}
}

// Stat stats a path below the tree; a missing path has Exists false.
func (t *diskTree) Stat(rel string) (Stat, error) {
	fd, err := t.open(rel, unix.O_PATH)
	if err != nil {
		if isNotExist(err) {
			return Stat{}, nil
		}
		return Stat{}, err
	}
	defer syscall.Close(fd)
	var sys syscall.Stat_t
	if err := syscall.Fstat(fd, &sys); err != nil {
		return Stat{}, &fs.PathError{Op: "stat", Path: t.abs(rel), Err: err}
	}
	return statOf(&sys), nil
}

// noLinks opens path with no symbolic link on any part of it; a kernel
// without openat2 opens it as written.
func noLinks(path string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ENOSYS:
			return syscall.Open(path, flags|syscall.O_CLOEXEC, 0)
		case err == unix.ELOOP:
			return -1, &fs.PathError{Op: "open", Path: path, Err: ErrLinkBelow}
		case err != nil:
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// createNoLinks creates a new file (O_EXCL, mode 0000, for writing: no
// other process of this user, a sandboxed step among them, can open it
// while it is written; tempFile.reveal gives it its mode) at a
// path none of whose parts is a link: the real path a writer resolved, so
// a directory swapped for a link since is refused, atomically with the
// create (ErrLinkBelow). A kernel without openat2 creates it as written.
func createNoLinks(path string) (*os.File, error) {
	const flags = unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_CLOEXEC
	how := unix.OpenHow{Flags: flags, Mode: 0, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ENOSYS:
			return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0)
		case err == unix.ELOOP:
			return nil, &fs.PathError{Op: "create", Path: path, Err: ErrLinkBelow}
		case err != nil:
			return nil, &fs.PathError{Op: "create", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
