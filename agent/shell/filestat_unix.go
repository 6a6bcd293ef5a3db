//go:build unix

package shell

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/gate"
)

// timespec is a change time as the system gives it.
type timespec = unix.Timespec

// fileStat is what the protected tree, the PATH shadow and the places'
// look need of an entry: its identity (device and inode), its change
// time (every entry made, removed or renamed in a directory moves it),
// and whether it is a directory. It keeps the law that an entry made
// where a protected one was is noticed (protected_tree.go).
type fileStat struct {
	dev, ino uint64
	ctime    timespec
	dir      bool
	// mayShut: a directory that may be shut to the user (gate.MayBeShut:
	// on Linux, the user's with owner bits lacking read or search), which
	// shutDir asks of: every other directory the user lists costs no more
	// look
	mayShut bool
}

func fileStatOf(st *unix.Stat_t) fileStat {
	dir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	return fileStat{dev: uint64(st.Dev), ino: uint64(st.Ino), ctime: st.Ctim, dir: dir,
		mayShut: gate.MayBeShut(st)}
}

// lstatFile is the entry at p, a link itself rather than its target.
func lstatFile(p string) (fileStat, bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return fileStat{}, false
	}
	return fileStatOf(&st), true
}

// openDirNoFollow opens the directory at p, not when p is a link, and
// gives what it is.
func openDirNoFollow(p string) (*os.File, fileStat, bool) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fileStat{}, false
	}
	f := os.NewFile(uintptr(fd), p)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		f.Close()
		return nil, fileStat{}, false
	}
	return f, fileStatOf(&st), true
}

// inodeOf is the inode of an entry listed at p with info (from Lstat or
// a directory listing).
func inodeOf(_ string, info os.FileInfo) (uint64, bool) {
	if s, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino), true
	}
	return 0, false
}

// shutDir is the directory p (not followed) when it is shut to the user
// (gate.DirShut, the rule the gate's search for other names keeps too:
// the user's, and it cannot be listed or searched by the user): a
// process running as the user may open it (chmod), and what is in it is
// not known. Another user's, which no step can open, is not.
func shutDir(p string) (fileStat, bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || !gate.DirShut(p, &st) {
		return fileStat{}, false
	}
	return fileStatOf(&st), true
}
