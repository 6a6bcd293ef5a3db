package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	roots     []string
	realRoots []string // the roots, written and real
	home      string
	env       map[string]string

	mu     sync.Mutex
	stamp  map[string]fileStamp // each file read or looked for → its stamp then
	places []string             // the places of the start
	trees  []string             // the work trees whose config was read, written and real
	extra  []string             // repositories found since the start (Near)
	// walked is when Near last walked the roots for repositories, and
	// walkCost what a walk took.
	walked   time.Time
	walkCost time.Duration
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
	for _, r := range roots { // the policy judges real paths
		g.realRoots = append(g.realRoots, r)
		if real, err := filepath.EvalSymlinks(r); err == nil && real != r {
			g.realRoots = append(g.realRoots, real)
		}
	}
	start := time.Now()
	places, read, trees := gitPlacesRead(roots, home, env, nil)
	g.places, g.stamp, g.trees = places, stamps(read), withReal(trees)
	g.walked, g.walkCost = time.Now(), time.Since(start)
	return g
}

// Near is the policy's SetNear function: before a write of a path below
// a root is judged, each directory from the path up to its root is
// looked at for a .git (a stat each); a repository not known yet (the
// user cloned it there during the session, or the walk of the start
// passed its bound: the fifth red team's) has its config read, and the
// places it names are given to the policy before the judgment goes on.
// A process's new repositories come the same way (Policy.Near, from the
// sandbox's map).
func (g *GitWatch) Near(p *gate.Policy) func(path string) {
	return func(path string) {
		root := ""
		for _, r := range g.realRoots {
			if strings.HasPrefix(path, r+"/") || path == r {
				root = r
				break
			}
		}
		if root == "" {
			return
		}
		var found []string
		for d := path; d != root && strings.HasPrefix(d, root+"/"); d = filepath.Dir(d) {
			if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
				found = append(found, d)
			}
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		// A repository elsewhere below the roots whose config names this
		// path (an include or hooks path outside its own tree: the sixth
		// red team's) is found by walking the roots again, as often as
		// costs at most a fiftieth of the time: at every write on a small
		// tree, every few seconds on a large one.
		if time.Since(g.walked) > 50*g.walkCost {
			start := time.Now()
			found = append(found, nestedRepos(g.roots, maxNestedWalk)...)
			g.walked, g.walkCost = time.Now(), time.Since(start)
		}
		fresh := false
		for _, d := range found {
			if !slices.Contains(g.trees, d) && !slices.Contains(g.extra, d) {
				g.extra, fresh = append(g.extra, d), true
			}
		}
		if fresh {
			g.give(p)
		}
	}
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
	g.give(p)
}

// give reads the places again and gives them to the policy; g.mu is held.
func (g *GitWatch) give(p *gate.Policy) {
	places, read, trees := gitPlacesRead(g.roots, g.home, g.env, g.extra)
	g.stamp, g.trees = stamps(read), withReal(trees)
	rules := make([]gate.Rule, 0, len(places))
	for _, pl := range places {
		rules = append(rules, gate.Rule{Kind: gate.TreeRule, Path: pl})
	}
	p.SetMoreRules(rules)
}

// withReal is these paths and the real path of each that differs.
func withReal(paths []string) []string {
	out := slices.Clone(paths)
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
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
