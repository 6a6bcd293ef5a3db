package settings

import (
	"os"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// GitWatch keeps a policy's git places current (the third red team's
// follow-up): the places are read when the session starts (GitPlaces),
// and a git config the user changes during the session — a new
// core.hooksPath, an include — would otherwise protect nothing until the
// next session. Refresh, called before each tool call, looks at every
// file the places were read from (a stat each) and, when one changed,
// reads the places again and adds them to the policy (gate.Policy
// SetMoreRules: the places of the start stay protected). What changes
// between a Refresh and the judgments of that call is seen at the next
// call.
type GitWatch struct {
	roots []string
	home  string
	env   map[string]string

	mu    sync.Mutex
	stamp map[string]fileStamp // each file read or looked for → its stamp then
}

// fileStamp is what a change to a file moves.
type fileStamp struct {
	exists bool
	size   int64
	mtime  time.Time
	sys    any // the system's own (inode, change time), compared by value
}

// NewGitWatch starts watching the git places of these roots.
func NewGitWatch(roots []string, home string, env map[string]string) *GitWatch {
	g := &GitWatch{roots: roots, home: home, env: env}
	_, read := gitPlacesRead(roots, home, env)
	g.stamp = stamps(read)
	return g
}

// Refresh gives the policy the git places again when a file they were
// read from changed since the last look.
func (g *GitWatch) Refresh(p *gate.Policy) {
	g.mu.Lock()
	defer g.mu.Unlock()
	changed := false
	for f, old := range g.stamp {
		if stampOf(f) != old {
			changed = true
			break
		}
	}
	if !changed {
		return
	}
	places, read := gitPlacesRead(g.roots, g.home, g.env)
	g.stamp = stamps(read)
	rules := make([]gate.Rule, 0, len(places))
	for _, pl := range places {
		rules = append(rules, gate.Rule{Kind: gate.TreeRule, Path: pl})
	}
	p.SetMoreRules(rules)
}

func stamps(files []string) map[string]fileStamp {
	m := make(map[string]fileStamp, len(files))
	for _, f := range files {
		m[f] = stampOf(f)
	}
	return m
}

func stampOf(name string) fileStamp {
	fi, err := os.Lstat(name)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: fi.Size(), mtime: fi.ModTime(), sys: sysStamp(fi)}
}
