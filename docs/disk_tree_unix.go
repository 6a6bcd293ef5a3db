//go:build darwin || freebsd

package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// diskTree is a Tree on disk: a descriptor of the directory, and every
// open below it a walk of its components from that descriptor, each
// opened with O_NOFOLLOW (walkBeneath): a symbolic link on the way is
// refused at the step that meets it (S8.4; these kernels have no
// openat2).
type diskTree struct {
	fd  int
	dir string
}

// OpenTree opens dir for reads below it that never follow a link; with
// real, no part of dir itself may be a link either.
func (d *Disk) OpenTree(dir string, real bool) (Tree, error) {
	var fd int
	var err error
	if real {
		fd, err = noLinks(dir, unix.O_RDONLY|unix.O_DIRECTORY)
	} else {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			err = &fs.PathError{Op: "open", Path: dir, Err: err}
		}
	}
	if err != nil {
		return nil, err
	}
	return &diskTree{fd: fd, dir: dir}, nil
}

func (t *diskTree) open(rel string, flags int) (int, error) {
	fd, err := walkBeneath(t.fd, relOS(rel), flags)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: t.abs(rel), Err: err}
	}
	return fd, nil
}

// Stat stats a path below the tree; a missing path has Exists false. Its
// directory is walked to; the last part is looked at without following
// it (a link there is ErrLinkBelow, as an open of it would be).
func (t *diskTree) Stat(rel string) (Stat, error) {
	r := relOS(rel)
	dir, base := t.fd, "."
	if r != "." {
		dfd, err := t.open(filepath.ToSlash(filepath.Dir(r)), unix.O_RDONLY|unix.O_DIRECTORY)
		if err != nil {
			if isNotExist(err) {
				return Stat{}, nil
			}
			return Stat{}, err
		}
		defer syscall.Close(dfd)
		dir, base = dfd, filepath.Base(r)
	}
	var st unix.Stat_t
	err := unix.Fstatat(dir, base, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		if isNotExist(err) {
			return Stat{}, nil
		}
		return Stat{}, &fs.PathError{Op: "stat", Path: t.abs(rel), Err: err}
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return Stat{}, &fs.PathError{Op: "open", Path: t.abs(rel), Err: ErrLinkBelow}
	}
	sys := syscall.Stat_t{Mode: st.Mode, Size: st.Size, Dev: st.Dev, Ino: st.Ino}
	sys.Mtimespec = syscall.Timespec{Sec: st.Mtim.Sec, Nsec: st.Mtim.Nsec}
	return statOf(&sys), nil
}

// noLinks opens path with no symbolic link on any part of it
// (walkNoLinks).
func noLinks(path string, flags int) (int, error) { return walkNoLinks(path, flags) }

// createNoLinks creates a new file (O_EXCL, mode 0000, for writing: no
// other process of this user can open it while it is written;
// tempFile.reveal gives it its mode) at a path none of whose parts is a
// link (createWalk).
func createNoLinks(path string) (*os.File, error) { return createWalk(path) }
