package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
)

// A place an approval narrowed, shown from a copy (bubblewrap).
//
// confine.Narrow uncovers the named paths of a secret store or a
// protected directory and keeps its other entries covered, but the
// directories it opened on the way (confine.GivenWay) could take any new
// name: a program approved to read ~/.ssh/known_hosts made
// ~/.ssh/authorized_keys, and one approved to edit .git/config made
// .git/hooks/pre-commit (the thirty-second red team's high rows). Under
// bubblewrap each such directory is shown from a private copy instead:
// it holds a copy of each named file (a regular file the program may
// replace, as sed -i and every atomic save do), a mount of each named
// directory, a read-only mount of each protected entry, and nothing of
// the secret ones. After the process, settle writes back the named files
// it changed (atomically, with no link followed), removes those it
// removed, and tells every other name it made there, which is not kept.
// The copies lie in eukhe's state directory, which every other step's
// sandbox hides.

// shadowCopyMax bounds a named file copied into a shadow; a larger one is
// shown by a mount of its own (written in place; not replaceable).
const shadowCopyMax = 64 << 20

// shadows are the shadowed directories of one process.
type shadows struct {
	root   string // the private directory holding them
	named  []string
	mounts []confine.Mount
	files  []shadowFile
	dirs   []shadowDir
}

// shadowDir is one directory shown from its copy.
type shadowDir struct {
	real, copy string
	write      bool
	kept       map[string]bool // names in copy that are not the program's
}

// shadowFile is a named file, copied into a shadow.
type shadowFile struct {
	real, copy string
	write      bool // the process could write it: else nothing is written back
	had        bool // the real file existed when copied
	copied     copyStat
	was        copyStat // the real file then
}

// copyStat is what tells a file changed.
type copyStat struct {
	ok              bool
	ino, size, mode uint64
	mtime           int64
}

func statOf(p string) copyStat {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return copyStat{}
	}
	return copyStat{ok: true, ino: st.Ino, size: uint64(st.Size), mode: uint64(st.Mode), mtime: st.Mtim.Nano()}
}

// shadowRoot is where a process's shadows are made: below eukhe's state
// directory, which every sandbox hides unless secret is allowed whole.
func shadowRoot(env map[string]string) (string, error) {
	state := stateHome(env)
	if state == "" {
		return "", errors.New("no state directory (HOME or XDG_STATE_HOME) to keep the copies in")
	}
	base := filepath.Join(state, "narrow")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(real, "p")
}

// makeShadows builds the shadows of the directories given way (by
// depth), for a program that named named; hidden tells an entry that
// stays hidden (a secret one), writable a directory the program may
// write. On an error nothing is left behind.
func makeShadows(root string, given, named []string, hidden, writable func(string) bool) (_ *shadows, err error) {
	sh := &shadows{root: root, named: named}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(root)
		}
	}()
	for i, d := range given {
		fi, err := os.Lstat(d)
		if errors.Is(err, os.ErrNotExist) {
			// on the way to a named path: the program may make it in
			// the shadow above, and settle carries it
			continue
		}
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s is no directory now", d)
		}
		sd := shadowDir{real: d, copy: filepath.Join(root, strconv.Itoa(i)), write: writable(d), kept: map[string]bool{}}
		if err := os.Mkdir(sd.copy, fi.Mode().Perm()|0o700); err != nil {
			return nil, err
		}
		kind := confine.MountRO
		if sd.write {
			kind = confine.MountRW
		}
		sh.mounts = append(sh.mounts, confine.Mount{Kind: kind, Src: sd.copy, Dst: d})
		des, err := os.ReadDir(d)
		if err != nil {
			return nil, err
		}
		for _, de := range des {
			p := filepath.Join(d, de.Name())
			c := filepath.Join(sd.copy, de.Name())
			switch {
			case de.Type()&os.ModeSymlink != 0 && slices.Contains(given, p):
				return nil, fmt.Errorf("%s is a symbolic link now", p)
			case de.Type()&os.ModeSymlink != 0 && hidden(p):
				// not there at all
			case de.Type()&os.ModeSymlink != 0:
				// a copy of the link (a named one too: its real path is
				// named, and shown where it lies): a mount on it would
				// land on its target; one the program replaces is not
				// kept
				sd.kept[de.Name()] = true
				target, err := os.Readlink(p)
				if err != nil {
					return nil, err
				}
				if err := os.Symlink(target, c); err != nil {
					return nil, err
				}
			case slices.Contains(given, p):
				sd.kept[de.Name()] = true
				if err := os.Mkdir(c, 0o700); err != nil {
					return nil, err
				}
			case slices.Contains(named, p):
				sd.kept[de.Name()] = true
				if err := sh.showNamed(p, c, de, writable(p)); err != nil {
					return nil, err
				}
			case hidden(p):
				// not there at all
			default:
				sd.kept[de.Name()] = true
				if err := placeholder(c, de.IsDir()); err != nil {
					return nil, err
				}
				sh.mounts = append(sh.mounts, confine.Mount{Kind: confine.MountRO, Src: p, Dst: p})
			}
		}
		sh.dirs = append(sh.dirs, sd)
	}
	slices.SortStableFunc(sh.mounts, func(a, b confine.Mount) int {
		return strings.Count(a.Dst, "/") - strings.Count(b.Dst, "/")
	})
	return sh, nil
}

// showNamed puts the named entry p in its shadow at c: a regular file as
// a copy, anything else (or a file too large to copy) as a mount.
func (sh *shadows) showNamed(p, c string, de os.DirEntry, write bool) error {
	if de.Type().IsRegular() {
		if fi, err := de.Info(); err == nil && fi.Size() <= shadowCopyMax {
			was := statOf(p)
			if err := copyNoFollow(p, c, fi.Mode().Perm()); err != nil {
				return err
			}
			sh.files = append(sh.files, shadowFile{real: p, copy: c, write: write, had: true, copied: statOf(c), was: was})
			return nil
		}
	}
	if err := placeholder(c, de.IsDir()); err != nil {
		return err
	}
	kind := confine.MountRO
	if write {
		kind = confine.MountRW
	}
	sh.mounts = append(sh.mounts, confine.Mount{Kind: kind, Src: p, Dst: p})
	return nil
}

// placeholder makes the mount point of an entry shown through.
func placeholder(c string, dir bool) error {
	if dir {
		return os.Mkdir(c, 0o700)
	}
	f, err := os.OpenFile(c, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// copyNoFollow copies the regular file src to the new file dst, neither
// through a link.
func copyNoFollow(src, dst string, perm os.FileMode) error {
	in, err := openReal(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is no regular file now", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// settle, after the process, writes back each named file it changed,
// removes each it removed, carries each named entry it made (a file, a
// link, a directory's tree; a directory on the way to one), tells what
// else it made there, which is not kept, and removes the copies. Each
// line says what did not land.
func (sh *shadows) settle(program string) []string {
	var out []string
	for _, f := range sh.files {
		if line := f.settle(program); line != "" {
			out = append(out, line)
		}
	}
	for _, d := range sh.dirs {
		out = sh.carryNew(out, program, d.copy, d.real, d.kept)
	}
	if err := os.RemoveAll(sh.root); err != nil {
		out = append(out, fmt.Sprintf("bash: %s: the copies at %s were not removed (%v); remove them by hand", gate.Visible(program), sh.root, err))
	}
	return out
}

// carryNew handles the entries of the copy dir, shown at real, that the
// process made: a named one is carried to real, a directory on the way
// to a named path is made there and looked into, anything else is told
// as not kept. kept are the names that are not the process's.
func (sh *shadows) carryNew(out []string, program, copyDir, real string, kept map[string]bool) []string {
	names, _ := readNames(copyDir)
	for _, n := range names {
		c, r := filepath.Join(copyDir, n), filepath.Join(real, n)
		if kept[n] || slices.ContainsFunc(sh.files, func(f shadowFile) bool { return f.copy == c }) {
			continue
		}
		switch {
		case slices.Contains(sh.named, r):
			if err := carry(c, r); err != nil {
				out = append(out, fmt.Sprintf("bash: %s: %s, which it made, was not kept (%v)", gate.Visible(program), gate.Visible(r), err))
			}
		case slices.ContainsFunc(sh.named, func(p string) bool { return strings.HasPrefix(p, r+"/") }) && isDirNoFollow(c):
			if err := makeDirAt(r); err != nil {
				out = append(out, fmt.Sprintf("bash: %s: %s, which it made, was not kept (%v)", gate.Visible(program), gate.Visible(r), err))
				continue
			}
			out = sh.carryNew(out, program, c, r, nil)
		default:
			out = append(out, fmt.Sprintf("bash: %s: made %s, which no question named: not kept (the approval covers the paths it named; a step that names this one asks for it)", gate.Visible(program), gate.Visible(r)))
		}
	}
	return out
}

func isDirNoFollow(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// makeDirAt makes the directory real (its parent opened with no link
// followed); one there already is kept.
func makeDirAt(real string) error {
	dir, err := openReal(filepath.Dir(real), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer dir.Close()
	err = unix.Mkdirat(int(dir.Fd()), filepath.Base(real), 0o755)
	if errors.Is(err, unix.EEXIST) {
		var st unix.Stat_t
		if unix.Fstatat(int(dir.Fd()), filepath.Base(real), &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return nil
		}
	}
	return err
}

// carry puts the entry the process made at c (a regular file, a
// symbolic link, or a directory of them) at real, which must not exist:
// built under a new name in real's directory, then renamed there
// without replacing anything (RENAME_NOREPLACE).
func carry(c, real string) error {
	dir, err := openReal(filepath.Dir(real), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer dir.Close()
	dfd := int(dir.Fd())
	tmp := "." + filepath.Base(real) + ".eukhe-" + randomTail()
	if err := buildAt(dfd, tmp, c, 0); err != nil {
		_ = removeAllAt(dfd, tmp)
		return err
	}
	if err := unix.Renameat2(dfd, tmp, dfd, filepath.Base(real), unix.RENAME_NOREPLACE); err != nil {
		_ = removeAllAt(dfd, tmp)
		if errors.Is(err, unix.EEXIST) {
			return errors.New("something is there now")
		}
		return err
	}
	return nil
}

// maxCarried bounds the depth of a directory carried.
const maxCarried = 32

// buildAt makes at name in the directory dfd what src is: a regular
// file's copy, a link with the same target, a directory of them. Any
// other kind is refused.
func buildAt(dfd int, name, src string, depth int) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode().IsRegular():
		in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		defer in.Close()
		fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(fi.Mode().Perm()))
		if err != nil {
			return err
		}
		out := os.NewFile(uintptr(fd), name)
		_, err = io.Copy(out, in)
		if err == nil {
			err = out.Sync()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return unix.Symlinkat(target, dfd, name)
	case fi.IsDir() && depth < maxCarried:
		if err := unix.Mkdirat(dfd, name, uint32(fi.Mode().Perm())); err != nil {
			return err
		}
		fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		names, err := readNames(src)
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := buildAt(fd, n, filepath.Join(src, n), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s is no regular file, link or directory", fi.Name())
}

// removeAllAt removes name in the directory dfd and all below it,
// following no link (a carry that failed half way).
func removeAllAt(dfd int, name string) error {
	if err := unix.Unlinkat(dfd, name, 0); err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), name)
	names, _ := f.Readdirnames(-1)
	for _, n := range names {
		_ = removeAllAt(fd, n)
	}
	f.Close()
	return unix.Unlinkat(dfd, name, unix.AT_REMOVEDIR)
}

func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

// settle writes back one named file: what the program left at its copy
// replaces the real file, unless the program left it as it was, or the
// real file changed meanwhile (someone else's change is kept).
func (f shadowFile) settle(program string) string {
	if !f.write {
		// a copy the process could only read is never written back,
		// whoever changed it
		return ""
	}
	now := statOf(f.copy)
	switch {
	case !now.ok && !f.had:
		return ""
	case now.ok && f.had && now == f.copied:
		return ""
	}
	if real := statOf(f.real); real != f.was {
		return fmt.Sprintf("bash: %s: %s changed while it ran: its own change was not written (the file is as the other change left it)", gate.Visible(program), gate.Visible(f.real))
	}
	dir, err := openReal(filepath.Dir(f.real), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return fmt.Sprintf("bash: %s: its change of %s was not written (%v); the file is as it was", gate.Visible(program), gate.Visible(f.real), err)
	}
	defer dir.Close()
	dfd := int(dir.Fd())
	base := filepath.Base(f.real)
	if !now.ok {
		if err := unix.Unlinkat(dfd, base, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Sprintf("bash: %s: %s was not removed (%v); it is as it was", gate.Visible(program), gate.Visible(f.real), err)
		}
		return ""
	}
	if now.mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Sprintf("bash: %s: left %s as no regular file: not kept (the file is as it was)", gate.Visible(program), gate.Visible(f.real))
	}
	if err := writeBack(dfd, base, f.copy, os.FileMode(now.mode).Perm()); err != nil {
		return fmt.Sprintf("bash: %s: its change of %s was not written (%v); the file is as it was", gate.Visible(program), gate.Visible(f.real), err)
	}
	return ""
}

// writeBack replaces the entry base of the directory dfd with the
// content of the regular file src: a new file beside it, made without
// following a link, synced, renamed over it.
func writeBack(dfd int, base, src string, perm os.FileMode) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return errors.New("the program's copy is no regular file")
	}
	tmp := "." + base + ".eukhe-" + randomTail()
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		return err
	}
	out := os.NewFile(uintptr(fd), tmp)
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Chmod(perm)
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(dfd, tmp, dfd, base)
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
	}
	return err
}
