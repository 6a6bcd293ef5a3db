package docs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// beneath acts on paths below one directory (the workspace root) without
// following a symbolic link on any part of them: every directory on the
// way is opened from the root's descriptor with openat2 RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS, and the last part is linked, renamed or removed
// relative to that directory's descriptor, never by path. A directory
// swapped for a link (into .git, out of the root, to ~) is refused by the
// kernel, atomically with the open: ErrLinkBelow. A path that is not
// below the root is errOutside. The recovery of a journal left behind
// acts only through it (journal.go).
type beneath struct {
	fd   int
	root string // the root's real path
}

// openBeneath opens the root's real path (the root itself may be reached
// through links: the user chose it; nothing below it is).
func openBeneath(root string) (*beneath, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open(real, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: real, Err: err}
	}
	return &beneath{fd: fd, root: real}, nil
}

// at opens rel (relative to the root; "." the root) with flags, beneath
// and with no link on the way nor at its end.
func (b *beneath) at(rel string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(b.fd, rel, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ELOOP || err == unix.EXDEV:
			return -1, &fs.PathError{Op: "open", Path: filepath.Join(b.root, rel), Err: ErrLinkBelow}
		case err == unix.ENOSYS:
			return -1, &fs.PathError{Op: "open", Path: filepath.Join(b.root, rel), Err: errors.New("this kernel has no openat2 (Linux 5.6): recovery cannot act without following links")}
		case err != nil:
			return -1, &fs.PathError{Op: "open", Path: filepath.Join(b.root, rel), Err: err}
		}
		return fd, nil
	}
}

// parent opens the directory that holds path (no link on the way) and
// gives its descriptor and path's last part; the caller closes it.
func (b *beneath) parent(path string) (int, string, error) {
	rel, err := b.rel(path)
	if err != nil {
		return -1, "", err
	}
	fd, err := b.at(filepath.Dir(rel), unix.O_PATH|unix.O_DIRECTORY)
	return fd, filepath.Base(rel), err
}

// revealLeft gives the file at path (below the root, no link on the
// way) the mode mode when it is a regular file of this user with none —
// a temp file renamed over its target whose mode a crash kept it from
// getting. Anything else, or a mode of 0, is left.
func (b *beneath) revealLeft(path string, mode uint32) {
	if path == "" || mode == 0 {
		return
	}
	rel, err := b.rel(path)
	if err != nil {
		return
	}
	pfd, err := b.at(rel, unix.O_PATH)
	if err != nil {
		return
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if unix.Fstat(pfd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o7777 != 0 {
		return
	}
	unix.Chmod("/proc/self/fd/"+strconv.Itoa(pfd), mode&0o7777)
}

// openModeless opens for reading a temp file that has no mode yet (its
// writer gives it one as it lands: tempFile.reveal): found without
// following a link, a regular file of this user with no permission bits,
// it is given read permission for its owner through its descriptor, then
// opened again through that descriptor (the very file).
func (b *beneath) openModeless(path string) (int, error) {
	rel, err := b.rel(path)
	if err != nil {
		return -1, err
	}
	pfd, err := b.at(rel, unix.O_PATH)
	if err != nil {
		return -1, err
	}
	defer unix.Close(pfd)
	return reopenModeless(pfd, path)
}

// reopenModeless is openModeless's second half, for a descriptor opened
// with O_PATH.
func reopenModeless(pfd int, path string) (int, error) {
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return -1, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o7777 != 0 {
		return -1, &fs.PathError{Op: "open", Path: path, Err: unix.EACCES}
	}
	self := "/proc/self/fd/" + strconv.Itoa(pfd)
	if err := unix.Chmod(self, 0o400); err != nil {
		return -1, &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	fd, err := unix.Open(self, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	unix.Fchmod(fd, 0) // no mode again until it lands
	return fd, nil
}

// linkFD gives the open file fd the new name to (which must not exist):
// exactly the file checked, whatever is at its old name now (from, where
// it was found, is not needed here: it is linked by its descriptor).
func (b *beneath) linkFD(fd int, _, to string) error {
	dir, base, err := b.parent(to)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), dir, base, unix.AT_SYMLINK_FOLLOW)
	if err != nil {
		return &os.LinkError{Op: "link", Old: "(checked file)", New: to, Err: err}
	}
	return nil
}

// live tells whether the entry name of dir is a temp file this process
// made and has not discarded (liveTemps).
func live(dir int, name string) bool {
	at, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(dir))
	if err != nil {
		return true // unknown: keep it
	}
	_, ok := liveTemps.Load(filepath.Join(at, name))
	return ok
}

// openModelessAt opens for reading the temp file name of the directory
// dir that has no mode yet (reopenModeless), without following a link.
func openModelessAt(dir int, name string) (int, error) {
	pfd, err := unix.Openat(dir, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(pfd)
	return reopenModeless(pfd, name)
}
