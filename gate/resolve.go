package gate

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// MaxLinks is how many symlinks Resolve follows before it calls the path
// looped, as Linux does (G1.1).
const MaxLinks = 40

// Kind is what a path names on the filesystem, without following a last
// symlink.
type Kind uint8

// The kinds Resolve tells apart.
const (
	KindMissing Kind = iota // nothing there, or it cannot be seen
	KindDir
	KindFile
	KindLink
)

// FS is what Resolve needs of a filesystem: the kind of a path (lstat)
// and a symlink's target, and whether a path is plain. OS is the real
// one; tests hand in a map.
type FS interface {
	Kind(path string) Kind
	Readlink(path string) (string, error)
	// Plain reports whether the absolute, clean path names an entry
	// that exists and is reached through no symlink (its last part not
	// one either): then it is its own real path, and Resolve asks no
	// more. False when it is not, or cannot be told at once (Resolve
	// then walks it part by part). On Linux one openat2 answers it
	// (resolve_plain_linux.go), where the walk made one lstat per part.
	Plain(path string) bool
}

// OS is the host's filesystem.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Kind(path string) Kind {
	fi, err := os.Lstat(osPath(path))
	switch {
	case err != nil:
		return KindMissing
	case fi.Mode()&fs.ModeSymlink != 0:
		return KindLink
	case fi.IsDir():
		return KindDir
	}
	return KindFile
}

func (osFS) Readlink(path string) (string, error) { return readlinkOS(path) }

func (osFS) Plain(path string) bool { return plainOS(path) }

// RealPath is a path resolved once: the real path, and whether its
// symlinks looped (then the policy does not trust the rest of it).
type RealPath struct {
	Path   string
	Looped bool
	// Problem is why a path on a Windows volume (WindowsNamer) could not
	// be placed (WindowsCanonical: a device name, a drive-relative path);
	// the policy never classes it Inside.
	Problem string
	// Spelled is the path resolved by its name when its final path (the
	// file's one name on a FinalNamer: finalname.go) differs; Path is
	// then the final path. Empty elsewhere (always on Linux and macOS).
	Spelled string
	// Via are the real paths of the symlinks the walk followed, in order
	// (nil when it followed none): a path resolved through a link that
	// lies in a secret or protected place names that place's entry,
	// whatever its target (ClassOfIdentity).
	Via []string
}

// errNoTarget stands for an unreadable link: it is kept as written.
var errNoTarget = errors.New("unreadable link")

// Resolve is the real path of path, relative to the absolute directory dir
// when it is relative (G1.1): each symlink on the existing part is followed,
// dangling ones too; "." does not move; ".." goes up from the real
// directory, and ".." of "/" is "/" (".." after a file names nothing:
// it and the rest stay as written, below the file); a part that does not
// exist stays as written. After MaxLinks links the path is looped: no further link is
// followed and the rest is taken as written. A link under /proc is never
// followed (proc.go): the path stops there, the rest as written.
func Resolve(fsys FS, dir, path string) RealPath {
	if wn, ok := fsys.(WindowsNamer); ok && wn.WindowsNames() {
		return resolveWindows(fsys, dir, path)
	}
	return resolveSlash(fsys, dir, path)
}

// resolveSlash is Resolve of a path whose parts '/' divides.
func resolveSlash(fsys FS, dir, path string) RealPath {
	if !strings.HasPrefix(path, "/") {
		path = dir + "/" + path
	}
	if isClean(path) && fsys.Plain(path) {
		return RealPath{Path: path} // no link on the way: the walk would give it back
	}
	todo := splitPath(path)
	var real, via []string
	links := 0
	looped := false
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(real) > 0 && fsys.Kind(joinPath(real)) == KindFile {
				// ".." after a file names nothing (the system gives
				// ENOTDIR): the rest stays as written, below the file,
				// and is judged as it is (`known_hosts/..` is no name
				// of the store that holds it: the thirty-third red
				// team's, whose approval lent the whole store)
				for _, t := range append([]string{c}, todo...) {
					if t != "" && t != "." {
						real = append(real, t)
					}
				}
				todo = nil
				continue
			}
			if len(real) > 0 {
				real = real[:len(real)-1]
			}
			continue
		}
		next := joinPath(append(real, c))
		if underProc(real) && fsys.Kind(next) == KindLink {
			// A link under /proc means another file in each process that
			// opens it (proc.go): it is not followed, and the rest of the
			// path stays as written, ".." too.
			real = append(real, c)
			for _, t := range todo {
				if t != "" && t != "." {
					real = append(real, t)
				}
			}
			todo = nil
			continue
		}
		if !looped && fsys.Kind(next) == KindLink {
			if links == MaxLinks {
				looped = true
				real = append(real, c)
				continue
			}
			target, err := fsys.Readlink(next)
			if err == nil && target == "" {
				err = errNoTarget
			}
			if err != nil {
				real = append(real, c)
				continue
			}
			links++
			via = append(via, next)
			if strings.HasPrefix(target, "/") {
				real = real[:0]
			}
			todo = append(splitPath(target), todo...)
			continue
		}
		real = append(real, c)
	}
	return RealPath{Path: joinPath(real), Looped: looped, Via: via}
}

// isClean reports whether the absolute path p is as the walk would join
// it: no empty, "." or ".." part, no trailing slash ("/" itself is).
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return false
	}
	for part := range strings.SplitSeq(p[1:], "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

func joinPath(parts []string) string { return "/" + strings.Join(parts, "/") }

// under reports whether p is base or below it; both clean and absolute.
func under(p, base string) bool {
	if base == "/" {
		return true
	}
	// No concatenation: every read judges its path against each listed
	// entry, and this was most of a small read's allocations.
	n := len(base)
	return len(p) >= n && p[:n] == base && (len(p) == n || p[n] == '/')
}

// cleanAbs is p made absolute against dir and cleaned lexically; ".." of
// "/" is "/". It is used for the policy's own entries, never for a path an
// agent names.
func cleanAbs(dir, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = dir + "/" + p
	}
	var out []string
	for _, c := range splitPath(p) {
		switch c {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, c)
		}
	}
	return joinPath(out)
}
