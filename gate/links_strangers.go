package gate

import (
	"strings"
	"sync"
	"time"
)

// A protected place outside the workspace (the home's configuration,
// searched whole: ~/.cache, ~/.rustup, another user's home) can hold a
// file with another name in the roots, and a sandbox must bind that name
// read-only. Walking those places is the costly part of a search (a
// developer's home holds hundreds of thousands of entries; each eukhe
// process walked them at its first confined step). But a file of theirs
// with a name in the roots is, seen from the roots, a file with more
// names than the roots hold: a stranger. A walk of the roots that meets
// every name of every file with more than one name there, and finds no
// stranger, proves that no file outside has a name in the roots, so the
// places outside need no walk for that search. A walk of the roots past
// its bound (strangerWalkBound) proves nothing, and the search walks
// everything as before.

// strangerWalkBound is how many entries of the roots the look for
// strangers walks before it gives up (and the search walks the places
// outside, kept a while, as it would without the look): a workspace this
// size is walked in tens of milliseconds.
const strangerWalkBound = 50000

// strangerLook is what a look for strangers in the roots found.
type strangerLook struct {
	any      bool // some file has a name outside the roots
	complete bool // the walk met every entry of the roots
	// changed is the latest status change (Inode.Changed) of a stranger:
	// a link made to it sets it, so a kept walk of the places outside
	// older than it may not know the name (links_tops.go)
	changed int64
}

// strangersIn looks at every entry at or below the roots (at most bound
// entries) for a regular file with more names than the roots hold.
// Roots may nest: each entry is counted once.
func strangersIn(fsys InodeFS, roots []string, bound int) strangerLook {
	count := map[fileID]uint64{}
	want := map[fileID]uint64{}
	changed := map[fileID]int64{}
	met := map[string]bool{}
	budget := bound
	for _, root := range roots {
		if underAny(root, withoutPath(roots, root)) {
			continue // nested: walked with the root above it
		}
		ok, _ := linkWalk(fsys, root, -1, nil, nil, &budget, func(p string, in Inode) bool {
			if !met[p] {
				met[p] = true
				id := fileID{in.Dev, in.Ino}
				count[id]++
				want[id] = in.Nlink
				changed[id] = max(changed[id], in.Changed)
			}
			return true
		})
		if !ok {
			return strangerLook{}
		}
	}
	look := strangerLook{complete: true}
	for id, n := range want {
		if count[id] < n {
			look.any = true
			look.changed = max(look.changed, changed[id])
		}
	}
	return look
}

// mountInRoots tells whether a mount point is below a root (or is one of
// several roots): a
// directory mounted twice (a bind mount) shows one file at two paths, so
// counting paths would count one name twice and take a stranger for a
// file whose names are all in the roots (the sixteenth red team's); the
// look is then not made, and the places outside are walked.
func mountInRoots(roots []string) bool {
	for _, m := range mountTable() {
		for _, r := range roots {
			// a root that is a mount point of its own (a dev
			// container's /workspace) shows each of its files once,
			// unless another root shows it again
			if under(m.Point, r) && (m.Point != r || len(roots) > 1) {
				return true
			}
		}
	}
	return false
}

// withoutPath is dirs without p (each copy).
func withoutPath(dirs []string, p string) []string {
	var out []string
	for _, d := range dirs {
		if d != p {
			out = append(out, d)
		}
	}
	return out
}

// strangerSkip remembers, for a while, roots too large for the look (a
// step's look would walk strangerWalkBound entries for nothing each time):
// it only ever makes a search walk more, never less.
type strangerSkip struct {
	mu    sync.Mutex
	large map[string]time.Time // the roots, joined → when found too large
	// last is the last look, kept until Fresh: a process's searches
	// (the protected files' and the secret files') share it
	lastKey  string
	lastAt   time.Time
	lastLook *strangerLook
}

// lookKept bounds how long a kept look serves when no Fresh comes (a
// caller that searches without it).
const lookKept = 200 * time.Millisecond

// recent is the last look at these roots, when one is kept.
func (s *strangerSkip) recent(key string) (strangerLook, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastLook != nil && s.lastKey == key && time.Since(s.lastAt) < lookKept {
		return *s.lastLook, true
	}
	return strangerLook{}, false
}

func (s *strangerSkip) keep(key string, look strangerLook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastKey, s.lastAt, s.lastLook = key, time.Now(), &look
}

// Fresh drops the kept look at the roots: the next search looks again.
// A sandbox calls it once per process, before its searches, so they
// share one look and no later process uses it.
func (c *LinkCache) Fresh() {
	if c == nil {
		return
	}
	c.strangers.mu.Lock()
	c.strangers.lastLook = nil
	c.strangers.mu.Unlock()
}

func (s *strangerSkip) tooLarge(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.large[key]
	return ok && time.Since(at) < topsFresh
}

func (s *strangerSkip) markLarge(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.large == nil {
		s.large = map[string]time.Time{}
	}
	s.large[key] = time.Now()
}

// topsWithoutStrangers are the protected places a search must walk:
// all of them, or, for a search of the roots alone (spare), when a look
// at the roots finds no file with a name outside them, only those at or
// below a root (a place outside holds no name of a file in the roots).
// changed is the strangers' latest status change, for any search: a kept
// walk of a place outside from before it is walked again (a name the
// user linked into the workspace within the minute the walk is kept: of
// a protected file, or of a secret file in a large place such as
// ~/.kube with its cache, the sixteenth red team's).
func (c *LinkCache) topsWithoutStrangers(fsys InodeFS, protected []string, depths []int, roots []string, spare bool) (tops []string, ds []int, changed int64) {
	outside := false
	for _, t := range protected {
		if !underAny(t, roots) {
			outside = true
			break
		}
	}
	if !outside || len(roots) == 0 {
		return protected, depths, 0
	}
	key := strings.Join(roots, "\x00")
	if c != nil && c.strangers.tooLarge(key) || mountInRoots(roots) {
		return protected, depths, 0
	}
	var look strangerLook
	ok := false
	if c != nil {
		look, ok = c.strangers.recent(key)
	}
	if !ok {
		look = strangersIn(fsys, roots, strangerWalkBound)
		if c != nil {
			c.strangers.keep(key, look)
		}
	}
	if !look.complete {
		if c != nil {
			c.strangers.markLarge(key)
		}
		return protected, depths, 0
	}
	if look.any || !spare {
		return protected, depths, look.changed
	}
	for i, t := range protected {
		if underAny(t, roots) {
			tops, ds = append(tops, t), append(ds, depths[i])
		}
	}
	return tops, ds, 0
}

// namesAllIn reports whether every name of the file in is at or below the
// roots, walking at most bound entries of them (on its device only): a
// file of the roots with no name outside them is no other name of a file
// in a place outside. false: a name is outside, or the walk ran past the
// bound.
func namesAllIn(fsys InodeFS, in Inode, roots []string, bound int) bool {
	if mountInRoots(roots) {
		return false // one name may show at two paths
	}
	met := map[string]bool{}
	devs := map[uint64]bool{in.Dev: true}
	budget := bound
	for _, root := range roots {
		if underAny(root, withoutPath(roots, root)) {
			continue
		}
		if ok, _ := linkWalk(fsys, root, -1, devs, nil, &budget, func(p string, o Inode) bool {
			if o.Dev == in.Dev && o.Ino == in.Ino {
				met[p] = true
			}
			return uint64(len(met)) < in.Nlink
		}); !ok {
			return false
		}
		if uint64(len(met)) >= in.Nlink {
			return true
		}
	}
	return uint64(len(met)) >= in.Nlink
}
