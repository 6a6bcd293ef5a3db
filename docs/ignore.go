package docs

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreNode is the ignore rules in force in one directory: its own
// .gitignore patterns over those of its parents. Patterns are scoped to the
// directory that holds them (their domain), as git scopes them.
type ignoreNode struct {
	parent   *ignoreNode
	patterns []gitignore.Pattern // in file order; the last match wins
}

// Ignored tells whether a path (its segments from the repository top) is
// ignored: the deepest file's last matching pattern decides, as in git.
func (n *ignoreNode) Ignored(parts []string, isDir bool) bool {
	for x := n; x != nil; x = x.parent {
		for i := len(x.patterns) - 1; i >= 0; i-- {
			switch x.patterns[i].Match(parts, isDir) {
			case gitignore.Exclude:
				return true
			case gitignore.Include:
				return false
			}
		}
	}
	return false
}

// child adds a directory's own ignore file on top of n; n itself when the
// file adds nothing.
func (n *ignoreNode) child(src []byte, domain []string) *ignoreNode {
	ps := parseIgnore(src, domain)
	if len(ps) == 0 {
		return n
	}
	return &ignoreNode{parent: n, patterns: ps}
}

// parseIgnore reads a .gitignore (or .git/info/exclude): one pattern a
// line; blank lines and # comments match nothing.
func parseIgnore(src []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for line := range bytes.SplitSeq(src, []byte{'\n'}) {
		s := strings.TrimSuffix(string(line), "\r")
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
			continue
		}
		// "dir/**" matches what is inside dir, not dir itself (git).
		if body := strings.TrimRight(s, " "); strings.HasSuffix(body, "/**") {
			s = body + "/*"
		}
		s = fnmatchClasses(s)
		ps = append(ps, exactPattern{gitignore.ParsePattern(s, domain), len(domain), s})
	}
	return ps
}

// fnmatchClasses spells git's negated class "[!a]" as Go's "[^a]"
// (go-git hands its pattern parts to filepath.Match).
func fnmatchClasses(s string) string {
	b := []byte(s)
	for i := 0; i+1 < len(b); i++ {
		switch {
		case b[i] == '\\':
			i++
		case b[i] == '[' && b[i+1] == '!':
			b[i+1] = '^'
		}
	}
	return string(b)
}

// exactPattern matches a path only by the path itself. go-git's patterns
// also match every path under a matching directory; a walk decides each
// directory before it goes down, so such a match is already spent, and a
// negation of the directory ("!dir/") must not re-include the files in it
// that another pattern ignores, as git does.
//
// A pattern that matches a parent can still match the path itself
// ("deep/**" matches deep/cache and deep/cache/x): when a negation
// re-included the parent ("!cache"), the walk goes down, and git ignores
// the file by the pattern's own match of its path.
type exactPattern struct {
	gitignore.Pattern
	domain int
	text   string // the pattern as parsed
}

func (e exactPattern) Match(parts []string, isDir bool) gitignore.MatchResult {
	r := e.Pattern.Match(parts, isDir)
	if r == gitignore.NoMatch {
		return r
	}
	for k := e.domain + 1; k < len(parts); k++ {
		if e.Pattern.Match(parts[:k], true) != gitignore.NoMatch {
			if e.matchesItself(parts[e.domain:], isDir) {
				return r
			}
			return gitignore.NoMatch
		}
	}
	return r
}

// matchesItself tells whether the pattern matches rel (the path below the
// pattern's directory) by its own segments, not through a parent: a name
// pattern (no '/' but a trailing one) matches the last segment, any other
// the whole path from the pattern's directory.
func (e exactPattern) matchesItself(rel []string, isDir bool) bool {
	p := strings.TrimRight(e.text, " ")
	p = strings.TrimPrefix(p, "!")
	p = strings.TrimPrefix(p, "\\")
	if strings.HasSuffix(p, "/") {
		if !isDir {
			return false
		}
		p = strings.TrimSuffix(p, "/")
	}
	if len(rel) == 0 {
		return false
	}
	if !strings.Contains(p, "/") {
		ok, _ := doublestar.Match(p, rel[len(rel)-1])
		return ok
	}
	ok, _ := doublestar.Match(strings.TrimPrefix(p, "/"), strings.Join(rel, "/"))
	return ok
}

// gitTop is the nearest directory at or above dir that holds .git, or ""
// when dir is in no repository.
func gitTop(dir string) string {
	for {
		if fileExists(filepath.Join(dir, ".git")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

func splitRel(rel string) []string {
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}
