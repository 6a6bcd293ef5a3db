package shell

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// A relative PATH entry ("./bin", "node_modules/.bin") names a directory
// wherever the user's shell is: a program a step makes in sub/bin, named
// like a command the user runs (ls), runs in its place when the user
// types it in sub (the fifth red team's). The sandbox cannot make every
// such directory read-only (every build's bin/ would go); it takes the
// entries there that shadow a command of the user's PATH as protected
// entries: one a process makes is renamed out of use after it, as a .git
// is, and a build's own programs (named otherwise) stay.

// pathShadow is what makes an entry a shadow: the directories' endings
// and the commands of the PATH's absolute directories.
type pathShadow struct {
	ends []string
	// commands are list's names when the shadow was made (a set the
	// list never changes: read without its lock)
	commands map[string]bool
	path     string            // the PATH they were listed for
	list     *gate.CommandList // the one list of PATH's commands (the gate's type)
}

// setShadow gives the map the relative PATH entries' endings and lists
// the commands of PATH's absolute directories: again when the PATH
// changed, or when one of its directories did (a command the user
// installs during the session: go install, pip install --user, apt; the
// seventh red team's) — gate.CommandList's look, which before every
// process costs a stat of each absolute PATH directory. When the
// commands changed, the map's directories that end like an entry are
// listed again at once, before the process: the entries there that
// shadow a new command are present (read-only), not made.
// An ending "" (an entry ".", "" or "..": the parent of wherever the
// shell is, the sixth red team's) makes every directory one.
func (t *protectedTree) setShadow(ends []string, path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(ends) == 0 {
		t.shadow = nil
		return
	}
	old := t.shadow
	var list *gate.CommandList
	if old != nil && old.path == path {
		list = old.list
		if !list.Look(0) && slices.Equal(old.ends, ends) {
			return
		}
	} else {
		list = gate.NewCommandList(filepath.SplitList(path))
		list.Look(0)
	}
	sh := &pathShadow{ends: ends, commands: list.Names(), path: path, list: list}
	t.shadow = sh
	if old != nil && t.dirs != nil && !maps.Equal(old.commands, sh.commands) {
		for p := range t.dirs {
			if sh.endsLike(p) {
				if d, ok := t.list(p); ok {
					t.dirs[p] = d
				}
			}
		}
		t.last = time.Time{} // the next look gathers what is present again
	}
}

// endsLike reports whether dir ends with a relative PATH entry, both
// compared with '/' (on Windows dir is spelled with '\', and no
// directory there ended with "/bin").
func (s *pathShadow) endsLike(dir string) bool {
	d := filepath.ToSlash(dir)
	return slices.ContainsFunc(s.ends, func(e string) bool { return e == "" || strings.HasSuffix(d, "/"+filepath.ToSlash(e)) })
}

// linkNamedLike reports whether the path of a link ends with the first
// parts of a relative PATH entry ("bin"; "node_modules" or
// "node_modules/.bin" for "node_modules/.bin"): the user's shell reaches
// a directory through it by such an entry.
func (s *pathShadow) linkNamedLike(link string) bool {
	return s != nil && len(s.restsAfter(link)) > 0
}

// restsAfter are, for each relative PATH entry whose first parts the
// link's path ends with, the parts that follow ("" when it ends with the
// whole entry).
func (s *pathShadow) restsAfter(link string) []string {
	var out []string
	link = filepath.ToSlash(link)
	for _, e := range s.ends {
		if e == "" {
			continue // every directory: the map sees the link's target's own
		}
		parts := strings.Split(filepath.ToSlash(e), "/")
		for k := 1; k <= len(parts); k++ {
			if strings.HasSuffix(link, "/"+strings.Join(parts[:k], "/")) {
				out = append(out, strings.Join(parts[k:], "/"))
			}
		}
	}
	return out
}

// shadowThrough reports whether the link at link (leading to real, in the
// roots) makes a shadow: a directory the user's shell reaches through it
// by a relative PATH entry holds an entry named like a command.
func (s *pathShadow) shadowThrough(link, real string) bool {
	if s == nil {
		return false
	}
	for _, rest := range s.restsAfter(link) {
		f, err := os.Open(filepath.Join(real, rest))
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		if slices.ContainsFunc(names, s.isCommand) {
			return true
		}
	}
	return false
}

// shadows reports whether the entry name in dir shadows a command: dir
// ends with a relative PATH entry and name is a command of the PATH.
func (s *pathShadow) shadows(dir, name string) bool {
	if s == nil || !s.endsLike(dir) {
		return false
	}
	return s.isCommand(name)
}

// isCommand reports whether name is a command of the PATH: listed, or
// found by name in a directory that could not be listed.
func (s *pathShadow) isCommand(name string) bool {
	return s.commands[name] || s.list.InUnlisted(name)
}
