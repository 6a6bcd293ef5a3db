//go:build darwin || freebsd

package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// beneath acts on paths below one directory (the workspace root) without
// following a symbolic link on any part of them (S8.4 for the recovery
// of S8.1's journal): every directory on the way is opened from the
// root's descriptor one component at a time with O_NOFOLLOW
// (walkBeneath: these kernels have no openat2), and the last part is
// linked, renamed or removed relative to that directory's descriptor,
// never by path. A directory swapped for a link is refused at the step
// that meets it: ErrLinkBelow. A path that is not below the root is
// errOutside.
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
	fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: real, Err: err}
	}
	return &beneath{fd: fd, root: real}, nil
}

// at opens rel (relative to the root; "." the root) with flags, beneath
// and with no link on the way nor at its end.
func (b *beneath) at(rel string, flags int) (int, error) {
	fd, err := walkBeneath(b.fd, rel, flags)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: filepath.Join(b.root, rel), Err: err}
	}
	return fd, nil
}

// parent opens the directory that holds path (no link on the way) and
// gives its descriptor and path's last part; the caller closes it.
func (b *beneath) parent(path string) (int, string, error) {
	rel, err := b.rel(path)
	if err != nil {
		return -1, "", err
	}
	fd, err := b.at(filepath.Dir(rel), unix.O_RDONLY|unix.O_DIRECTORY)
	return fd, filepath.Base(rel), err
}

// revealLeft gives the file at path (below the root, no link on the
// way) the mode mode when it is a regular file of this user with none —
// a temp file renamed over its target whose mode a crash kept it from
// getting. Anything else, or a mode of 0, is left. With no O_PATH, the
// entry is checked and changed by name in its directory, never through a
// link (AT_SYMLINK_NOFOLLOW): a file of this user put in its place
// between the two is given the mode instead.
func (b *beneath) revealLeft(path string, mode uint32) {
	if path == "" || mode == 0 {
		return
	}
	dir, base, err := b.parent(path)
	if err != nil {
		return
	}
	defer unix.Close(dir)
	var st unix.Stat_t
	if unix.Fstatat(dir, base, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o7777 != 0 {
		return
	}
	unix.Fchmodat(dir, base, mode&0o7777, unix.AT_SYMLINK_NOFOLLOW)
}

// openModeless opens for reading a temp file that has no mode yet (its
// writer gives it one as it lands: tempFile.reveal), found without
// following a link (openModelessAt).
func (b *beneath) openModeless(path string) (int, error) {
	dir, base, err := b.parent(path)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dir)
	fd, err := openModelessAt(dir, base)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// openModelessAt opens for reading the entry name of dir when it is a
// regular file of this user with no permission bits: it is given read
// permission for its owner by name (never through a link), opened, checked
// to be the file it checked, and given no mode again until it lands.
func openModelessAt(dir int, name string) (int, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return -1, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o7777 != 0 {
		return -1, unix.EACCES
	}
	if err := unix.Fchmodat(dir, name, 0o400, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return -1, err
	}
	fd, err := openatRetry(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if err != nil {
		return -1, err
	}
	unix.Fchmod(fd, 0) // no mode again until it lands
	var now unix.Stat_t
	if unix.Fstat(fd, &now) != nil || now.Ino != st.Ino || now.Dev != st.Dev {
		unix.Close(fd)
		return -1, errors.New("its temp file was swapped while recovery ran")
	}
	return fd, nil
}

// linkFD gives the open file fd, found at from, the new name to (which
// must not exist). With no link of a descriptor (Linux's /proc/self/fd),
// the entry at from is linked by name in its directory (linkat without
// following a link), then the new name is checked to be the very file
// fd; a swap of the entry at from between the check and the link is
// undone (the new name removed) and reported.
func (b *beneath) linkFD(fd int, from, to string) error {
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
	if err := unix.Linkat(fdir, fbase, tdir, tbase, 0); err != nil {
		return &os.LinkError{Op: "link", Old: from, New: to, Err: err}
	}
	var want, got unix.Stat_t
	if unix.Fstat(fd, &want) != nil || unix.Fstatat(tdir, tbase, &got, unix.AT_SYMLINK_NOFOLLOW) != nil || want.Ino != got.Ino || want.Dev != got.Dev {
		unix.Unlinkat(tdir, tbase, 0)
		return fmt.Errorf("its temp file was swapped while recovery ran: %s was not linked", filepath.Base(to))
	}
	return nil
}

// live tells whether the entry name of a directory is a temp file this
// process made and has not discarded (liveTemps). With no path of a
// descriptor to ask, it matches by name: a temp name carries this
// process's pid and a counter, and a second directory holding the same
// name only keeps a file longer (the safe side).
func live(_ int, name string) bool {
	found := false
	liveTemps.Range(func(k, _ any) bool {
		if p, ok := k.(string); ok && filepath.Base(p) == name {
			found = true
			return false
		}
		return true
	})
	return found
}
