package shell

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
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
	path     string              // the PATH they were listed for
	stamps   map[string]dirStamp // each absolute PATH directory as listed
}

// dirStamp is a directory's identity and change time when it was listed;
// racy when that time fell in the clock tick the listing began in (a
// change later in the tick keeps it): listed again next time.
type dirStamp struct {
	dev, ino uint64
	ctime    timespec
	racy     bool
}

// stampOf is the directory d's stamp now; ok false when it is no
// directory.
func stampOf(d string, began timespec) (dirStamp, bool) {
	st, ok := statFile(d)
	if !ok || !st.dir {
		return dirStamp{}, false
	}
	return dirStamp{dev: st.dev, ino: st.ino, ctime: st.ctime,
		racy: st.ctime.Sec > began.Sec || st.ctime.Sec == began.Sec && st.ctime.Nsec >= began.Nsec}, true
}

// setShadow gives the map the relative PATH entries' endings and lists
// the commands of PATH's absolute directories: again when the PATH
// changed, or when one of its directories did (a command the user
// installs during the session: go install, pip install --user, apt; the
// seventh red team's). Before every process this costs a stat of each
// absolute PATH directory. When the commands changed, the map's
// directories that end like an entry are listed again at once, before
// the process: the entries there that shadow a new command are present
// (read-only), not made.
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
	if old != nil && old.path == path && slices.Equal(old.ends, ends) && !old.moved() {
		return
	}
	began := coarseNow()
	sh := &pathShadow{ends: ends, commands: map[string]bool{}, path: path, stamps: map[string]dirStamp{}}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		st, ok := stampOf(d, began)
		if !ok {
			sh.stamps[d] = dirStamp{} // missing: looked for again
			continue
		}
		f, err := os.Open(d)
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		sh.stamps[d] = st
		for _, n := range names {
			sh.commands[n] = true
		}
	}
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

// moved reports whether a PATH directory listed for s changed since.
func (s *pathShadow) moved() bool {
	var never timespec
	for d, was := range s.stamps {
		now, ok := stampOf(d, never)
		switch {
		case was == dirStamp{}:
			if ok {
				return true
			}
		case !ok || was.racy || now.dev != was.dev || now.ino != was.ino || now.ctime != was.ctime:
			return true
		}
	}
	return false
}

// endsLike reports whether dir ends with a relative PATH entry.
func (s *pathShadow) endsLike(dir string) bool {
	return slices.ContainsFunc(s.ends, func(e string) bool { return e == "" || strings.HasSuffix(dir, "/"+e) })
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
	for _, e := range s.ends {
		if e == "" {
			continue // every directory: the map sees the link's target's own
		}
		parts := strings.Split(e, "/")
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
		if slices.ContainsFunc(names, func(n string) bool { return s.commands[n] }) {
			return true
		}
	}
	return false
}

// shadows reports whether the entry name in dir shadows a command: dir
// ends with a relative PATH entry and name is a command of the PATH.
func (s *pathShadow) shadows(dir, name string) bool {
	if s == nil || !s.commands[name] {
		return false
	}
	return s.endsLike(dir)
}
