//go:build unix

package userkey

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// keyDir is a key's directory, open: every name in it is opened relative
// to this descriptor, never again by path, so a directory on the way
// replaced by a link after the walk is not followed either.
type keyDir struct {
	f    *os.File
	path string
}

// openDir opens dir as a key's directory: its state directory (as
// splitAtState says) following links, then each part below it without
// following one (O_NOFOLLOW, one part at a time: as openat2's
// RESOLVE_NO_SYMLINKS, and the same on every Unix), each required to be
// a directory of this user's that no one else may write (checkDir). With
// make, a missing directory is made 0700 on the way.
func openDir(dir string, make bool) (*keyDir, error) {
	base, parts := splitAtState(dir)
	if make {
		if err := os.MkdirAll(base, 0o700); err != nil {
			return nil, err
		}
	}
	fd, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: base, Err: err}
	}
	at := base
	for _, part := range append([]string{""}, parts...) {
		if part != "" {
			at = filepath.Join(at, part)
			next, err := openPart(fd, part, at, make)
			unix.Close(fd)
			if err != nil {
				return nil, err
			}
			fd = next
		}
		if err := checkDir(fd, at); err != nil {
			unix.Close(fd)
			return nil, err
		}
	}
	return &keyDir{f: os.NewFile(uintptr(fd), at), path: at}, nil
}

// openPart opens the directory part of the directory fd (at is its path,
// for errors) without following a link; with make, it is made first when
// missing.
func openPart(fd int, part, at string, make bool) (int, error) {
	if make {
		if err := unix.Mkdirat(fd, part, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, &os.PathError{Op: "mkdir", Path: at, Err: err}
		}
	}
	next, err := unix.Openat(fd, part, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == nil {
		return next, nil
	}
	var st unix.Stat_t
	// ELOOP on Linux and macOS, EMLINK on FreeBSD, ENOTDIR where
	// O_DIRECTORY is judged first: what is there says which
	if serr := unix.Fstatat(fd, part, &st, unix.AT_SYMLINK_NOFOLLOW); serr == nil {
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			return -1, fmt.Errorf("%s is a symbolic link, which eukhe does not follow to a key: remove the link and start eukhe again (it makes the directory anew)", at)
		case unix.S_IFDIR:
		default:
			return -1, fmt.Errorf("%s is not a directory: remove it and start eukhe again", at)
		}
	}
	return -1, &os.PathError{Op: "open", Path: at, Err: err}
}

// checkDir refuses a key's directory (or the state directory above it)
// that is not a directory of this user's, or that anyone else may write:
// another user could put a key of theirs in it.
func checkDir(fd int, at string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "stat", Path: at, Err: err}
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return fmt.Errorf("%s is not a directory: remove it and start eukhe again", at)
	case int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to user %d, not to you: eukhe keeps its keys only in directories of yours; remove it and start eukhe again", at, st.Uid)
	case st.Mode&0o022 != 0:
		return fmt.Errorf("%s may be written by others (mode %04o), who could put a key of theirs in it: chmod go-w %s", at, st.Mode&0o7777, at)
	}
	return nil
}

func (d *keyDir) close() { d.f.Close() }

// open opens name in d for reading, not following a link at it.
func (d *keyDir) open(name string) (*os.File, error) {
	fd, err := unix.Openat(int(d.f.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(d.path, name), Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.path, name)), nil
}

// create makes name in d, mode 0600, failing when anything is there.
func (d *keyDir) create(name string) (*os.File, error) {
	fd, err := unix.Openat(int(d.f.Fd()), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "create", Path: filepath.Join(d.path, name), Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.path, name)), nil
}

// link gives the file from another name in d, never replacing one there
// (fs.ErrExist).
func (d *keyDir) link(from, to string) error {
	if err := unix.Linkat(int(d.f.Fd()), from, int(d.f.Fd()), to, 0); err != nil {
		return &os.LinkError{Op: "link", Old: filepath.Join(d.path, from), New: filepath.Join(d.path, to), Err: err}
	}
	return nil
}

func (d *keyDir) remove(name string) { unix.Unlinkat(int(d.f.Fd()), name, 0) }

// sync makes d's entries durable.
func (d *keyDir) sync() { d.f.Sync() }

// ownedAlone refuses a key that is not a regular file of this user's
// alone.
func ownedAlone(f *os.File) error {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Mode&0o077 != 0 {
		return fmt.Errorf("it is not a file of this user's alone (mode %04o, user %d): remove it and start eukhe again", st.Mode&0o7777, st.Uid)
	}
	return nil
}
