//go:build unix

package gate

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// walkLinks is linkWalk on the OS, relative to each directory's open
// descriptor: a regular file is looked up by its name in the directory
// it was listed from (fstatat), not by its whole path from the root (a
// walk of a workspace spent most of its time resolving each file's path
// again), and a directory's entries' kinds come from the listing. What it
// visits, in what order, and what it takes from budget are linkWalk's.
//
// A directory of this user's that it cannot read (mode 000, or read
// without search) is blind: a step running as the user can open it
// (chmod) and reach what is in it, a name of a secret or protected file
// the walk did not see, so the walk is not complete and says where (the
// seventeenth red team's: a chmod 000 hid a hard link of the user's SSH
// key from the search, and the next step read it). Another user's, which
// no step can open either, is passed over.
func (osFS) walkLinks(top string, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) (bool, string) {
	if *budget <= 0 {
		return false, ""
	}
	*budget--
	if skip != nil && skip(top) {
		return true, ""
	}
	var st unix.Stat_t
	if err := unix.Lstat(top, &st); err != nil {
		if err == unix.EACCES {
			// a directory above it shuts the user out (chmod 000
			// .git): blind when that directory is the user's
			if shut := shutAbove(top); shut != "" {
				return false, shut
			}
		}
		return true, ""
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if uint64(st.Nlink) > 1 {
			visit(top, inodeOf(&st))
		}
		return true, ""
	case unix.S_IFDIR:
	default:
		return true, ""
	}
	if depth == 0 || devs != nil && !devs[uint64(st.Dev)] {
		return true, ""
	}
	fd, err := unix.Open(top, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == unix.EMFILE || err == unix.ENFILE {
		return false, ""
	}
	if err != nil {
		if ownBlind(err, top, &st) {
			return false, top
		}
		return true, ""
	}
	ok, _, blind := walkDirAt(fd, top, &st, depth, devs, skip, budget, visit)
	return ok, blind
}

// shutAbove is the nearest directory above p that can be looked at and
// is the user's, when p could not be looked at for its permissions; ""
// when it is another user's.
func shutAbove(p string) string {
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		var st unix.Stat_t
		if unix.Lstat(d, &st) == nil {
			if ownBlind(unix.EACCES, d, &st) {
				return d
			}
			return ""
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// ownBlind tells whether err, opening or reading the directory at dir
// whose status is st, is a refusal by its permissions of a directory
// shut to this user (DirShut: the user's own, which it may open with
// chmod). The walk asks only when a try failed, so a directory it reads
// costs no more look.
func ownBlind(err error, dir string, st *unix.Stat_t) bool {
	return (err == unix.EACCES || err == unix.EPERM) && DirShut(dir, st)
}

// walkDirAt walks the entries of the open directory fd (at path dir,
// whose status is st), which it closes; blind is a directory of the
// user's it could not read (walkLinks).
func walkDirAt(fd int, dir string, st *unix.Stat_t, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) (ok, more bool, blind string) {
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		var errno unix.Errno
		if errors.As(err, &errno) && ownBlind(errno, dir, st) {
			return false, false, dir
		}
		return true, true, ""
	}
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	for _, e := range ents {
		if *budget <= 0 {
			return false, false, ""
		}
		*budget--
		p := prefix + e.Name()
		if skip != nil && skip(p) {
			continue
		}
		t := e.Type()
		if t&os.ModeSymlink != 0 || t&(os.ModeNamedPipe|os.ModeSocket|os.ModeDevice|os.ModeCharDevice) != 0 {
			continue
		}
		var est unix.Stat_t
		if err := unix.Fstatat(fd, e.Name(), &est, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if ownBlind(err, dir, st) {
				return false, false, dir // listed but not searchable (mode r--)
			}
			continue
		}
		switch est.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			if uint64(est.Nlink) > 1 && !visit(p, inodeOf(&est)) {
				return true, false, ""
			}
			continue
		case unix.S_IFDIR:
		default:
			continue
		}
		if depth-1 == 0 || devs != nil && !devs[uint64(est.Dev)] {
			continue
		}
		sub, err := unix.Openat(fd, e.Name(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EMFILE || err == unix.ENFILE {
			// out of descriptors (a chain of directories deeper than
			// the limit): what is below was not seen, so the walk is not
			// complete (the sixteenth red team's remark)
			return false, false, ""
		}
		if err != nil {
			if ownBlind(err, p, &est) {
				return false, false, p
			}
			continue
		}
		if ok, more, blind := walkDirAt(sub, p, &est, depth-1, devs, skip, budget, visit); !ok || !more {
			return ok, more, blind
		}
	}
	return true, true, ""
}

func inodeOf(st *unix.Stat_t) Inode {
	return Inode{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Nlink: uint64(st.Nlink), Changed: st.Ctim.Nano()}
}
