package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxWayLinks bounds the links followed on the way to one place (the
// kernel's own bound is 40).
const maxWayLinks = 40

// linksOnTheWay are the symbolic links the path p (absolute, clean) goes
// through on the way to its real entry: each link met resolving it, and
// each met resolving the links' targets, by their absolute paths. A
// protected place reached through one (a PATH directory through the Nix
// profile's links in ~/.local/state) is swapped by replacing the link,
// whatever protects the place's written and real paths (the seventh red
// team's): each is read-only where the mechanism can make it so and
// looked at again after the process.
func linksOnTheWay(p string) []string {
	var out []string
	done := "/"
	rest := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	for n := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return out
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			done = next
			continue
		}
		if n++; n > maxWayLinks {
			return out
		}
		if !slices.Contains(out, next) {
			out = append(out, next)
		}
		to, err := os.Readlink(next)
		if err != nil {
			return out
		}
		if filepath.IsAbs(to) {
			done = "/"
		}
		rest = append(strings.Split(strings.TrimPrefix(to, "/"), "/"), rest...)
	}
	return out
}
