//go:build !windows

package docs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxOrphanCopy is the largest temp file whose bytes are copied aside; a
// larger one stays where it is, named in the notice.
const maxOrphanCopy = 64 << 20

// sweepOrphans sweeps below b's root the temp files writer pid left that
// no live writer locks (orphans.go says the rule), copying into aside
// those that hold bytes their file does not; it gives one line per file
// it found, each saying what became of it.
func sweepOrphans(b *beneath, pid int, aside string) []string {
	var out []string
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		if depth > 256 {
			return
		}
		fd, err := b.at(rel, unix.O_RDONLY|unix.O_DIRECTORY)
		if err != nil {
			return
		}
		defer unix.Close(fd)
		dup, err := unix.Dup(fd)
		if err != nil {
			return
		}
		es, _ := listFD(dup, filepath.Join(b.root, rel))
		for _, e := range es {
			switch {
			case e.Link:
			case e.Dir:
				walk(filepath.Join(rel, e.Name), depth+1)
			default:
				if target, ok := orphanOf(e.Name, pid); ok {
					if line := sweepOrphan(fd, rel, e.Name, target, aside); line != "" {
						out = append(out, line)
					}
				}
			}
		}
	}
	walk(".", 0)
	return out
}

// sweepOrphan handles one temp file of the directory dir (rel below the
// root): "" when a live writer holds it or it is no regular file.
func sweepOrphan(dir int, rel, name, target, aside string) string {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err == unix.EACCES { // no mode yet (tempFile.reveal): its writer is dead (the journal's)
		fd, err = openModelessAt(dir, name)
	}
	if err != nil {
		return ""
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return ""
	}
	var now unix.Stat_t
	sys, _ := st.Sys().(*syscall.Stat_t)
	if sys == nil || unix.Fstatat(dir, name, &now, unix.AT_SYMLINK_NOFOLLOW) != nil || now.Ino != sys.Ino || now.Dev != sys.Dev {
		return "" // swept or replaced while we locked it
	}
	shown := filepath.ToSlash(filepath.Join(rel, target))
	if target == "" {
		shown = filepath.ToSlash(filepath.Join(rel, name)) + " (a temp file of a long name)"
	}
	if st.Size() > maxOrphanCopy {
		return fmt.Sprintf("%s: its temp file %s (%d bytes, other bytes than the file may hold) stays where it is", shown, filepath.ToSlash(filepath.Join(rel, name)), st.Size())
	}
	held, err := readAllFD(f)
	if err != nil {
		return fmt.Sprintf("%s: its temp file %s could not be read (%v) and stays", shown, filepath.ToSlash(filepath.Join(rel, name)), err)
	}
	if target != "" && holdsNow(dir, target, held) {
		unix.Unlinkat(dir, name, 0)
		return fmt.Sprintf("%s: its temp file held the bytes it holds now (removed)", shown)
	}
	copyAt := filepath.Join(aside, rel, strings.TrimPrefix(name, "."))
	if err := os.MkdirAll(filepath.Dir(copyAt), 0o700); err == nil {
		err = os.WriteFile(copyAt, held, 0o600)
		if err == nil {
			unix.Unlinkat(dir, name, 0)
			return fmt.Sprintf("%s: its temp file held other bytes than it holds now (the interrupted edit's, or the file's before it): they are kept at %s", shown, copyAt)
		}
	}
	return fmt.Sprintf("%s: its temp file %s holds other bytes than it holds now and could not be copied aside: it stays", shown, filepath.ToSlash(filepath.Join(rel, name)))
}

// holdsNow tells whether the regular file name of dir holds exactly b.
func holdsNow(dir int, name string, b []byte) bool {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(b)) {
		return false
	}
	now, err := readAllFD(f)
	return err == nil && bytes.Equal(now, b)
}

func readAllFD(f *os.File) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(f)
	return buf.Bytes(), err
}
