//go:build unix

package gate

import (
	"os"
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
func (osFS) walkLinks(top string, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) bool {
	if *budget <= 0 {
		return false
	}
	*budget--
	if skip != nil && skip(top) {
		return true
	}
	var st unix.Stat_t
	if err := unix.Lstat(top, &st); err != nil {
		return true
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if uint64(st.Nlink) > 1 {
			visit(top, inodeOf(&st))
		}
		return true
	case unix.S_IFDIR:
	default:
		return true
	}
	if depth == 0 || devs != nil && !devs[uint64(st.Dev)] {
		return true
	}
	fd, err := unix.Open(top, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == unix.EMFILE || err == unix.ENFILE {
		return false
	}
	if err != nil {
		return true
	}
	ok, _ := walkDirAt(fd, top, depth, devs, skip, budget, visit)
	return ok
}

// walkDirAt walks the entries of the open directory fd (at path dir),
// which it closes.
func walkDirAt(fd int, dir string, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) (ok, more bool) {
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		return true, true
	}
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	for _, e := range ents {
		if *budget <= 0 {
			return false, false
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
		var st unix.Stat_t
		if err := unix.Fstatat(fd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			if uint64(st.Nlink) > 1 && !visit(p, inodeOf(&st)) {
				return true, false
			}
			continue
		case unix.S_IFDIR:
		default:
			continue
		}
		if depth-1 == 0 || devs != nil && !devs[uint64(st.Dev)] {
			continue
		}
		sub, err := unix.Openat(fd, e.Name(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EMFILE || err == unix.ENFILE {
			// out of descriptors (a chain of directories deeper than
			// the limit): what is below was not seen, so the walk is not
			// complete (the sixteenth red team's remark)
			return false, false
		}
		if err != nil {
			continue
		}
		if ok, more := walkDirAt(sub, p, depth-1, devs, skip, budget, visit); !ok || !more {
			return ok, more
		}
	}
	return true, true
}

func inodeOf(st *unix.Stat_t) Inode {
	return Inode{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Nlink: uint64(st.Nlink), Changed: st.Ctim.Nano()}
}
