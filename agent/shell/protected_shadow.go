package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	ends     []string
	commands map[string]bool
	path     string // the PATH they were listed for
}

// setShadow gives the map the relative PATH entries' endings and lists
// the commands of PATH's absolute directories (once for each PATH).
// An ending "" (an entry ".", "" or "..": the parent of wherever the
// shell is, the sixth red team's) makes every directory one.
func (t *protectedTree) setShadow(ends []string, path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(ends) == 0 {
		t.shadow = nil
		return
	}
	if t.shadow != nil && t.shadow.path == path && slices.Equal(t.shadow.ends, ends) {
		return
	}
	sh := &pathShadow{ends: ends, commands: map[string]bool{}, path: path}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		f, err := os.Open(d)
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			sh.commands[n] = true
		}
	}
	t.shadow = sh
}

// shadows reports whether the entry name in dir shadows a command: dir
// ends with a relative PATH entry and name is a command of the PATH.
func (s *pathShadow) shadows(dir, name string) bool {
	if s == nil || !s.commands[name] {
		return false
	}
	return slices.ContainsFunc(s.ends, func(e string) bool { return e == "" || strings.HasSuffix(dir, "/"+e) })
}
