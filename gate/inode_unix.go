//go:build unix

package gate

import (
	"io/fs"
	"os"
	"sort"
	"syscall"
)

// Inode is what lstat says of path when it is a regular file.
func (osFS) Inode(path string) (Inode, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return Inode{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Inode{}, false
	}
	return Inode{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Nlink: uint64(st.Nlink), Changed: changedAt(st)}, true
}

// DirDev is the device of the directory path (not followed), when it is
// one.
func (osFS) DirDev(path string) (uint64, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}

// Names are the directory's entries' names, sorted.
func (osFS) Names(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	sort.Strings(names)
	return names, err
}

// NamesKinds are the directory's entries' names, sorted, and the kind of
// each as the directory itself says it (getdents' type: no lstat per
// entry, which walks of large homes spent most of their time on); an
// entry whose type the file system does not say is looked at with lstat.
func (osFS) NamesKinds(dir string) ([]string, []Kind, error) {
	ents, err := os.ReadDir(dir)
	names, kinds := make([]string, len(ents)), make([]Kind, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			kinds[i] = KindLink
		case t.IsDir():
			kinds[i] = KindDir
		default:
			kinds[i] = KindFile
		}
	}
	return names, kinds, err
}
