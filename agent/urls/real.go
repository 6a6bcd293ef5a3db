package urls

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// isMissing tells whether err says a path is not there: no such entry, or
// a file where the path needs a directory.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// errEscapes is a real path outside the real root.
var errEscapes = errors.New("escapes")

// fileErr types a failure of the real-path check.
func fileErr(raw, rootName string, err error) *Error {
	switch {
	case errors.Is(err, errEscapes):
		return Errorf(KindEscapes, raw, "a symbolic link on this path leads out of %s; name the file it leads to as a plain path instead (the documents gate judges that)", rootName)
	case errors.Is(err, fs.ErrPermission):
		return Errorf(KindPermissionDenied, raw, "%v; this user cannot read it", err)
	}
	return Errorf(KindIO, raw, "%v", err)
}

// realUnder requires the real path of p (every symbolic link that exists
// followed) under the real path of root (S7.6); a symlink out of the root
// is errEscapes. The guard is against the filesystem, so it is I/O.
func realUnder(root, p string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	real, err := realPath(p)
	if err != nil {
		return err
	}
	if !within(realRoot, real) {
		return errEscapes
	}
	return nil
}

// within tells whether p is dir or under it; both are clean and absolute.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// maxLinks bounds the links realPath follows, as the kernel's ELOOP does.
const maxLinks = 40

// realPath is where p leads with every symbolic link that exists followed,
// a dangling one included; a missing tail stays as named (it is where the
// file would be made).
func realPath(p string) (string, error) {
	cur, tail, links := filepath.Clean(p), []string(nil), 0
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{real}, tail...)...), nil
		}
		if !isMissing(err) {
			return "", err
		}
		fi, lerr := os.Lstat(cur)
		switch {
		case lerr == nil && fi.Mode()&fs.ModeSymlink != 0:
			// A dangling link: follow it by hand from its real directory.
			if links++; links > maxLinks {
				return "", fmt.Errorf("%s: too many levels of symbolic links", p)
			}
			target, err := os.Readlink(cur)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				dir, err := filepath.EvalSymlinks(filepath.Dir(cur))
				if err != nil {
					return "", err
				}
				target = filepath.Join(dir, target)
			}
			cur = filepath.Clean(target)
		case lerr == nil || !isMissing(lerr):
			return "", err
		default:
			parent := filepath.Dir(cur)
			if parent == cur {
				return filepath.Join(append([]string{cur}, tail...)...), nil
			}
			tail = append([]string{filepath.Base(cur)}, tail...)
			cur = parent
		}
	}
}
