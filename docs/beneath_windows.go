package docs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// beneath acts on paths below one directory (the workspace root) without
// following a reparse point (a symbolic link, a junction) on any part of
// them (S8.4 for the recovery of S8.1's journal). Windows opens nothing
// relative to a directory's handle, so each act is a checked walk
// (openUnder): every part from the root down is looked at and refused
// when it is a reparse point, the last is opened without following it,
// and the open file's final path must be below the root's. What remains
// between the look and the act: a directory swapped for a junction that
// leads elsewhere below the root; the linking, renaming and removing
// that follow act by path, after their directory was checked, and are
// checked after the fact where they can be (the file landed is the one
// checked).
type beneath struct {
	root  string // the root's real path
	final string // its final path (GetFinalPathNameByHandle)
}

// errOutside is a path a beneath will not act on: not below its root.
var errOutside = errors.New("it is not below the workspace root: recovery acts only there")

var errBytesLost = errors.New("its bytes are lost")

// openBeneath opens the root's real path (the root itself may be reached
// through links: the user chose it; nothing below it is).
func openBeneath(root string) (*beneath, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	h, err := createFile(real, 0, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: real, Err: err}
	}
	defer windows.CloseHandle(h)
	final, err := finalPath(h)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: real, Err: err}
	}
	return &beneath{root: real, final: final}, nil
}

func (b *beneath) close() {}

// rel is path below the root, or errOutside: path must be absolute,
// clean and below the root's real path.
func (b *beneath) rel(path string) (string, error) {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return "", errOutside
	}
	rel, err := filepath.Rel(b.root, path)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return "", errOutside
	}
	return rel, nil
}

// at opens rel (relative to the root; "." the root) with access, beneath
// and with no reparse point on the way nor at its end.
func (b *beneath) at(rel string, access uint32) (windows.Handle, error) {
	h, err := openUnder(b.root, b.final, rel, access, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return badFD, &fs.PathError{Op: "open", Path: filepath.Join(b.root, rel), Err: err}
	}
	return h, nil
}

// parent checks the directory that holds path (no reparse point on the
// way) and gives it and path's last part.
func (b *beneath) parent(path string) (string, string, error) {
	rel, err := b.rel(path)
	if err != nil {
		return "", "", err
	}
	h, err := b.at(filepath.Dir(rel), 0)
	if err != nil {
		return "", "", err
	}
	windows.CloseHandle(h)
	return filepath.Dir(path), filepath.Base(rel), nil
}

// open opens the file at path for reading (no reparse point on it); its
// deletion is shared, so it can be renamed while open.
func (b *beneath) open(path string) (sysFD, error) {
	rel, err := b.rel(path)
	if err != nil {
		return badFD, err
	}
	return b.at(rel, windows.GENERIC_READ|windows.FILE_WRITE_ATTRIBUTES)
}

// digest is the digest of the regular file at path: exists false when
// there is none; an error when something else is there or a reparse
// point is on the way.
func (b *beneath) digest(path string) (string, bool, error) {
	fd, err := b.open(path)
	if err != nil && isNotExist(err) && b.putBack(path) {
		fd, err = b.open(path)
	}
	if err != nil {
		if isNotExist(err) {
			return "", false, nil
		}
		return "", false, err
	}
	defer closeFD(fd)
	return digestFD(fd, path)
}

func digestFD(fd sysFD, path string) (string, bool, error) {
	snap, err := readFD(fd, func() string { return path }, 0)
	if err != nil {
		return "", false, err
	}
	defer snap.Release()
	if snap.Stat.Dir {
		return "", false, fmt.Errorf("%s is a directory", path)
	}
	return digestHex(snap.Data), true, nil
}

// putBack renames the one name path was set aside under (replaceAside)
// back to path, which is not there: a writer killed between
// replaceAside's two renames left the file there, and recovery then
// finds it where its journal names it. Several such names, or none: it
// does nothing (false).
func (b *beneath) putBack(path string) bool {
	dir, base, err := b.parent(path)
	if err != nil {
		return false
	}
	des, _ := os.ReadDir(dir)
	var found []string
	for _, de := range des {
		if de.Type().IsRegular() && isAsideOf(de.Name(), base) {
			found = append(found, de.Name())
		}
	}
	if len(found) != 1 {
		return false
	}
	from, err := windows.UTF16PtrFromString(filepath.Join(dir, found[0]))
	if err != nil {
		return false
	}
	to, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return false
	}
	return windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH) == nil // never over a file made since
}

// temp opens a temp file of a journal and checks that it is one: a
// regular file with no other name holding bytes of digest want. (Its
// owner is not checked here: the workspace's access list is the user's.)
func (b *beneath) temp(path, want string) (sysFD, error) {
	fd, err := b.open(path)
	if err != nil {
		return badFD, err
	}
	info, err := handleInfo(fd)
	switch {
	case err != nil:
	case info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		err = fmt.Errorf("its temp file %s is not a regular file", filepath.Base(path))
	case info.NumberOfLinks != 1:
		err = fmt.Errorf("its temp file %s has %d names (a hard link of another file?)", filepath.Base(path), info.NumberOfLinks)
	}
	if err == nil {
		var d string
		if d, _, err = digestFD(fd, path); err == nil && d != want {
			err = errBytesLost
		}
	}
	if err != nil {
		closeFD(fd)
		return badFD, err
	}
	return fd, nil
}

// revealLeft gives the file at path the read-only attribute when mode
// has no owner write bit (a temp file renamed over its target whose mode
// a crash kept it from getting). Anything else is left.
func (b *beneath) revealLeft(path string, mode uint32) {
	if path == "" || mode == 0 || mode&0o200 != 0 {
		return
	}
	fd, err := b.open(path)
	if err != nil {
		return
	}
	defer closeFD(fd)
	if info, err := handleInfo(fd); err == nil && info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
		fchmodFD(fd, mode)
	}
}

// linkFD gives the open file fd, found at from, the new name to (which
// must not exist): CreateHardLink by path, then the new name is checked
// to be the very file fd; another file there is unlinked and reported.
func (b *beneath) linkFD(fd sysFD, from, to string) error {
	if _, _, err := b.parent(from); err != nil {
		return err
	}
	if _, _, err := b.parent(to); err != nil {
		return err
	}
	if err := os.Link(from, to); err != nil {
		return err
	}
	if !b.is(fd, to) {
		os.Remove(to)
		return fmt.Errorf("its temp file was swapped while recovery ran: %s was not linked", filepath.Base(to))
	}
	return nil
}

// is tells whether the file at path (no reparse point on it) is fd.
func (b *beneath) is(fd sysFD, path string) bool {
	rel, err := b.rel(path)
	if err != nil {
		return false
	}
	h, err := b.at(rel, 0)
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	return sameID(fd, h)
}

// renameOver renames the entry from over to (renameReplace: in one step,
// or not at all when another program holds to open), then checks that
// to is the file fd.
func (b *beneath) renameOver(fd sysFD, from, to string) error {
	if _, _, err := b.parent(from); err != nil {
		return err
	}
	if _, _, err := b.parent(to); err != nil {
		return err
	}
	if err := renameReplace(from, to); err != nil {
		return err
	}
	if !b.is(fd, to) {
		return fmt.Errorf("its temp file was swapped while recovery ran: %s holds what was put there", filepath.Base(to))
	}
	return nil
}

// remove removes the entry at path (a file; a reparse point there is
// removed itself, never what it names), through its handle.
func (b *beneath) remove(path string) error {
	dir, base, err := b.parent(path)
	if err != nil {
		return err
	}
	h, err := createFile(filepath.Join(dir, base), windows.DELETE, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return &fs.PathError{Op: "remove", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	if info, err := handleInfo(h); err != nil || info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return &fs.PathError{Op: "remove", Path: path, Err: errors.New("not a file")}
	}
	if err := deleteHandle(h); err != nil {
		return &fs.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}

// sweep removes the temp files of each target that no writer locks
// (S8.5), as sweepTargets does, in directories checked beneath.
func (b *beneath) sweep(targets []string) {
	byDir := map[string][]string{}
	var dirs []string
	for _, t := range targets {
		rel, err := b.rel(t)
		if err != nil {
			continue
		}
		d := filepath.Dir(rel)
		if _, ok := byDir[d]; !ok {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], filepath.Base(rel))
	}
	for _, d := range dirs {
		h, err := b.at(d, 0)
		if err != nil {
			continue
		}
		windows.CloseHandle(h)
		des, _ := os.ReadDir(filepath.Join(b.root, d))
		var names []string
		for _, e := range des {
			if IsTemp(e.Name()) {
				names = append(names, e.Name())
			}
		}
		for _, target := range byDir[d] {
			for _, dead := range Sweep(names, target) {
				removeIfFree(filepath.Join(b.root, d, dead))
			}
			// a name the file was set aside under (replaceAside) that a
			// crash left once the file was in place again
			if _, err := os.Lstat(filepath.Join(b.root, d, target)); err == nil {
				for _, e := range des {
					if isAsideOf(e.Name(), target) {
						removeIfFree(filepath.Join(b.root, d, e.Name()))
					}
				}
			}
		}
	}
}

// maxOrphanCopy is the largest temp file whose bytes are copied aside; a
// larger one stays where it is, named in the notice.
const maxOrphanCopy = 64 << 20

// sweepOrphans sweeps below b's root the temp files writer pid left that
// no live writer locks (orphans.go says the rule), copying into aside
// those that hold bytes their file does not; one line per file found.
// The directories are read plainly; none that is a reparse point is
// entered.
func sweepOrphans(b *beneath, pid int, aside string) []string {
	var out []string
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		if depth > 256 {
			return
		}
		h, err := b.at(rel, 0)
		if err != nil {
			return
		}
		windows.CloseHandle(h)
		des, _ := os.ReadDir(filepath.Join(b.root, rel))
		for _, e := range des {
			switch {
			case e.Type()&(fs.ModeSymlink|fs.ModeIrregular) != 0:
			case e.IsDir():
				walk(filepath.Join(rel, e.Name()), depth+1)
			default:
				if target, ok := orphanOf(e.Name(), pid); ok {
					if line := sweepOrphan(b, rel, e.Name(), target, aside); line != "" {
						out = append(out, line)
					}
				}
			}
		}
	}
	walk(".", 0)
	return out
}

// sweepOrphan handles one temp file (rel below the root): "" when a live
// writer holds it (it shares nothing: it does not open) or it is no
// regular file.
func sweepOrphan(b *beneath, rel, name, target, aside string) string {
	h, err := b.at(filepath.Join(rel, name), windows.GENERIC_READ|windows.DELETE)
	if err != nil {
		return ""
	}
	f := os.NewFile(uintptr(h), name)
	defer f.Close()
	info, err := handleInfo(h)
	if err != nil || info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0 || lockHandle(h, lockEx|lockNB) != nil {
		return ""
	}
	size := int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow)
	shown := filepath.ToSlash(filepath.Join(rel, target))
	if target == "" {
		shown = filepath.ToSlash(filepath.Join(rel, name)) + " (a temp file of a long name)"
	}
	if size > maxOrphanCopy {
		return fmt.Sprintf("%s: its temp file %s (%d bytes, other bytes than the file may hold) stays where it is", shown, filepath.ToSlash(filepath.Join(rel, name)), size)
	}
	var buf bytes.Buffer
	_, err = buf.ReadFrom(f)
	held := buf.Bytes()
	if err != nil {
		return fmt.Sprintf("%s: its temp file %s could not be read (%v) and stays", shown, filepath.ToSlash(filepath.Join(rel, name)), err)
	}
	if target != "" {
		if d, ok, err := b.digest(filepath.Join(b.root, rel, target)); err == nil && ok && d == digestHex(held) {
			deleteHandle(h)
			return fmt.Sprintf("%s: its temp file held the bytes it holds now (removed)", shown)
		}
	}
	copyAt := filepath.Join(aside, rel, strings.TrimPrefix(name, "."))
	if err := os.MkdirAll(filepath.Dir(copyAt), 0o700); err == nil {
		err = os.WriteFile(copyAt, held, 0o600)
		if err == nil {
			deleteHandle(h)
			return fmt.Sprintf("%s: its temp file held other bytes than it holds now (the interrupted edit's, or the file's before it): they are kept at %s", shown, copyAt)
		}
	}
	return fmt.Sprintf("%s: its temp file %s holds other bytes than it holds now and could not be copied aside: it stays", shown, filepath.ToSlash(filepath.Join(rel, name)))
}
