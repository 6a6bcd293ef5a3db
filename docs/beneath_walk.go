//go:build !windows

package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// walkBeneath opens rel (relative to the open directory dir; "." is dir
// itself) with flags, one component at a time from dir: each directory on
// the way with O_DIRECTORY|O_NOFOLLOW, the last with flags|O_NOFOLLOW,
// every one relative to the descriptor of the one before. A symbolic link
// at any step is refused (ErrLinkBelow), so nothing outside dir is
// reached through a link swapped in on the way, whenever it is swapped:
// each step opens exactly the entry of the directory already open. A
// ".." (or an empty or absolute part) is refused with errOutside: a walk
// never climbs above dir. It keeps S8.4's no-link rule where there is
// no openat2 (darwin, FreeBSD), which does the same walk in one call; the
// error is the caller's to name (it gives the bare errno otherwise).
//
// What it cannot refuse: a hard link below dir to a file elsewhere (a
// name, not a link: the same as openat2), and a directory moved out of
// dir while the walk is below it (the walk then goes on below the moved
// directory, where openat2's RESOLVE_BENEATH would fail with EXDEV on a
// "..", which this walk never takes).
func walkBeneath(dir int, rel string, flags int) (int, error) {
	if rel == "." {
		return openatRetry(dir, ".", flags|unix.O_CLOEXEC)
	}
	if rel == "" || strings.HasPrefix(rel, "/") {
		return -1, errOutside
	}
	parts := strings.Split(rel, "/")
	cur, own := dir, false
	for i, p := range parts {
		if p == ".." || p == "" || p == "." {
			if own {
				unix.Close(cur)
			}
			return -1, errOutside
		}
		fl := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i == len(parts)-1 {
			fl = flags | unix.O_NOFOLLOW | unix.O_CLOEXEC
		}
		fd, err := openatRetry(cur, p, fl)
		if err != nil && err != unix.ENOENT && isLinkAt(cur, p) {
			// ELOOP on Linux and darwin, EMLINK on FreeBSD, ENOTDIR for
			// a link to a directory opened with O_DIRECTORY: one answer
			err = ErrLinkBelow
		}
		if own {
			unix.Close(cur)
		}
		if err != nil {
			return -1, err
		}
		cur, own = fd, true
	}
	return cur, nil
}

// openatRetry is openat(2), again after an interrupt.
func openatRetry(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		return fd, err
	}
}

// isLinkAt tells whether the entry name of the directory dir is a
// symbolic link.
func isLinkAt(dir int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// walkNoLinks opens path with no symbolic link on any part of it: a walk from
// the file system's root (or the working directory) with O_NOFOLLOW at
// each step.
func walkNoLinks(path string, flags int) (int, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	root, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(root)
	rel := abs[1:]
	if rel == "" {
		rel = "."
	}
	fd, err := walkBeneath(root, rel, flags)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// createWalk creates a new file (O_EXCL, mode 0000, for writing: no
// other process of this user can open it while it is written;
// tempFile.reveal gives it its mode) at a path none of whose parts is a
// link: its directory is walked to with O_NOFOLLOW at each step, and the
// file created in it with O_NOFOLLOW (ErrLinkBelow for a link).
func createWalk(path string) (*os.File, error) {
	dir, err := walkNoLinks(filepath.Dir(path), unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dir)
	fd, err := openatRetry(dir, filepath.Base(path), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		if err != unix.EEXIST && isLinkAt(dir, filepath.Base(path)) {
			err = ErrLinkBelow
		}
		return nil, &fs.PathError{Op: "create", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
