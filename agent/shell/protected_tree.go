package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Protected names at any depth. A program allowed
// write but not protected can make a .git (a working repository with an
// fsmonitor hook), a .vscode or a .devcontainer anywhere below the root,
// and a later `git status` or the editor runs it as the user. So a
// session keeps a map of its roots' directories: each one's identity and
// change time, its subdirectories and the protected entries in it. Before
// a step every entry found is made read-only (the sandbox's protected
// list); after it only the directories whose change time moved are
// listed again (every entry made, removed or renamed in a directory moves
// its change time), new directories are walked whole, and every protected
// entry that was not there before the step is renamed out of use.
//
// What the program controls between the scan before and the rename
// after: every directory it may write. It can make a protected name in a
// new directory tree (found: new directories are walked), rename one into
// place (the parent's change time moves), make it a link or a file (a
// .git file is a gitdir pointer: any kind counts), or swap a directory on
// the way to it for a link once the step is over — no process of the
// step outlives it (bubblewrap's pid namespace, the Landlock supervisor),
// and the rename opens the parent with no link on the way and never
// replaces an entry.

// maxTreeDirs bounds the first map of a session's roots: past it, the
// directories that were there are not mapped (the roots, their children
// and the working directory's ancestors are still looked at every time,
// and what is below the last mapped ones is walked whole at every
// refresh: protected_beyond.go); a directory made later is always mapped.
// A variable for the tests only.
var maxTreeDirs = 50_000

// freshFor is how long a refresh stands for the look before the next
// process of a script: the processes of one script start back to back,
// and a look costs a stat of every directory.
const freshFor = time.Second

// protectedTree is one session's map.
type protectedTree struct {
	mu      sync.Mutex
	dirs    map[string]*treeDir
	full    bool // maxTreeDirs was reached
	names   []string
	roots   []string
	last    time.Time // when the last refresh ended
	present []string  // the protected entries it found
	shut    []string  // the shut directories it met (treeDir.shut)
	// Past the bound: the directories the first map did not list
	// (frontier), and the protected entries found below them at the
	// last walk (beyond). Each refresh walks them whole (beyond.go).
	frontier []string
	beyond   map[string]uint64
	// beyondShut are the shut directories found there at the last walk,
	// with their change times (treeDir.shut's, past the bound).
	beyondShut map[string]timespec
	// beyondLinks are the links found there at the last walk, and
	// outLinks the links a step made that lead out of the roots or
	// nowhere yet: each is looked at again at every refresh, for a
	// repository made at its target since (the fifth red team's).
	beyondLinks map[string]uint64
	outLinks    map[string]uint64
	// shadow: the entries of relative PATH directories that shadow a
	// command are protected entries too (protected_shadow.go).
	shadow *pathShadow
	// live watches the map's directories while a process runs
	// (protected_live.go).
	live liveTree
}

// before is the look before a process starts: the protected entries
// present now, from a refresh that ended within freshFor or a new one.
// An entry made in between by anything but a step (the user's own git
// init) is then taken as the step's and renamed out of use, and the reply
// says so: nothing is lost.
func (t *protectedTree) before(roots, names []string) []string {
	t.mu.Lock()
	if t.dirs != nil && slices.Equal(t.roots, roots) && slices.Equal(t.names, names) && time.Since(t.last) < freshFor && !t.opened() {
		present := t.present
		t.mu.Unlock()
		return present
	}
	t.mu.Unlock()
	_, present := t.refresh(roots, names)
	return present
}

// treeDir is one directory as last listed.
type treeDir struct {
	dev, ino uint64
	ctime    timespec
	subdirs  []string          // names of its subdirectories (not links)
	found    map[string]uint64 // protected entries in it: name → inode
	links    map[string]uint64 // its symbolic links: name → inode
	// racy: its change time was in the clock tick its listing began in,
	// so a change later in that tick keeps the same time: it is listed
	// again at the next refresh, whatever its time says.
	racy bool
	// shut: a directory of the user's that cannot be listed or searched
	// (chmod 000, r--): what is in it is not known, and a process running
	// as the user may open it (the eighteenth red team's: a step shut
	// sub/, the map forgot it, and the next one wrote sub/.nvim.lua
	// through its hard link). It stays in the map, so its change (the
	// chmod that opens it) has it listed again.
	shut bool
}

// refresh brings the map up to date for these roots and names: every
// known directory is looked at again, and those that changed are listed
// again. It gives the protected entries that were not in the map before
// (all of them on the first call, which builds the map), and every one
// present now.
func (t *protectedTree) refresh(roots, names []string) (made, present []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	first := t.dirs == nil || !slices.Equal(t.names, names) || !slices.Equal(t.roots, roots)
	if first {
		t.dirs, t.full, t.names, t.roots = map[string]*treeDir{}, false, append([]string(nil), names...), append([]string(nil), roots...)
		t.frontier, t.beyond, t.beyondLinks, t.beyondShut, t.outLinks = nil, nil, nil, nil, map[string]uint64{}
	}
	var queue []string
	for _, r := range roots {
		if _, ok := t.dirs[r]; !ok {
			queue = append(queue, r)
		}
	}
	reopenRoots(roots)
	gone, changed := t.sweep()
	for _, p := range gone {
		t.forget(p)
	}
	queue = append(queue, changed...)
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		old := t.dirs[path]
		d, ok := t.list(path)
		if !ok {
			t.forget(path)
			continue
		}
		t.dirs[path] = d
		t.live.watch(path)
		if d.shut && (old == nil || !old.shut || old.ctime != d.ctime) {
			// shut since the last look (made shut, or shut by a chmod):
			// what a process made in it cannot be seen, so the directory
			// itself is taken as made and renamed out of use (the
			// nineteenth red team's: sub/.nvim.lua written, then sub
			// shut, in one process)
			made = append(made, path)
			continue
		}
		for name, ino := range d.found {
			p := filepath.Join(path, name)
			// one the walk past the bound found before is not new when the
			// map takes its directory in (its parent changed)
			if (old == nil || old.found[name] != ino) && !(old == nil && t.beyond[p] == ino) {
				made = append(made, p)
			}
		}
		for name, ino := range d.links {
			if p := filepath.Join(path, name); !first && (old == nil || old.links[name] != ino) {
				made = t.newLink(made, p, ino)
			}
		}
		for _, sub := range d.subdirs {
			p := filepath.Join(path, sub)
			if _, known := t.dirs[p]; known {
				continue
			}
			// The bound is for the first map of what was there: every
			// directory made since is walked, however many a step made.
			// What the first map leaves out is walked whole at every
			// refresh (walkBeyond).
			if first && (t.full || len(t.dirs)+len(queue) >= maxTreeDirs) {
				t.full = true
				t.frontier = append(t.frontier, p)
				continue
			}
			queue = append(queue, p)
		}
		if old != nil {
			for _, sub := range old.subdirs {
				if !slices.Contains(d.subdirs, sub) {
					t.forget(filepath.Join(path, sub))
				}
			}
		}
	}
	t.shut = nil
	for path, d := range t.dirs {
		for name := range d.found {
			present = append(present, filepath.Join(path, name))
		}
		if d.shut {
			t.shut = append(t.shut, path)
		}
	}
	if len(t.frontier) > 0 {
		found, links, shut := t.walkBeyond()
		for p, ctime := range shut {
			// shut since the last walk: taken as made, as in the map
			if was, ok := t.beyondShut[p]; !first && (!ok || was != ctime) {
				made = append(made, p)
			}
			t.shut = append(t.shut, p)
		}
		for p, ino := range found {
			if was, ok := t.beyond[p]; !first && (!ok || was != ino) {
				made = append(made, p)
			}
			present = append(present, p)
		}
		for p, ino := range links {
			if was, ok := t.beyondLinks[p]; !first && (!ok || was != ino) {
				made = t.newLink(made, p, ino)
			}
		}
		t.beyond, t.beyondLinks, t.beyondShut = found, links, shut
	}
	slices.Sort(t.shut)
	for p, ino := range t.outLinks {
		switch st, ok := lstatFile(p); {
		case !ok || st.ino != ino:
			delete(t.outLinks, p)
		case leadsToRepository(p, t.roots, t.names, t.shadow):
			delete(t.outLinks, p)
			if !slices.Contains(made, p) {
				made = append(made, p)
			}
		}
	}
	slices.Sort(made)
	slices.Sort(present)
	if first {
		made = nil // what was there when the session began is the user's
	}
	t.present, t.last = present, time.Now()
	return made, present
}

// sweep stats every known directory, a few at a time side by side: those
// gone (or no longer directories) and those whose identity or change time
// moved.
func (t *protectedTree) sweep() (gone, changed []string) {
	paths := make([]string, 0, len(t.dirs))
	for p := range t.dirs {
		paths = append(paths, p)
	}
	const workers = 4
	state := make([]uint8, len(paths)) // 0 same, 1 gone, 2 changed
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := w; i < len(paths); i += workers {
				d := t.dirs[paths[i]]
				switch st, ok := lstatFile(paths[i]); {
				case !ok || !st.dir:
					state[i] = 1
				case d.racy || st.dev != d.dev || st.ino != d.ino || st.ctime != d.ctime:
					state[i] = 2
				}
			}
		})
	}
	wg.Wait()
	for i, s := range state {
		switch s {
		case 1:
			gone = append(gone, paths[i])
		case 2:
			changed = append(changed, paths[i])
		}
	}
	return gone, changed
}

// list reads one directory: its identity, its subdirectories (a
// protected entry is not descended into, nor is a link) and its
// protected entries of any kind; a shut one (treeDir.shut) only its
// identity.
func (t *protectedTree) list(path string) (*treeDir, bool) {
	began := coarseNow()
	f, st, ok := openDirNoFollow(path)
	if !ok {
		if st, ok := shutDir(path); ok {
			return &treeDir{dev: st.dev, ino: st.ino, ctime: st.ctime, found: map[string]uint64{}, shut: true,
				racy: st.ctime.Sec > began.Sec || st.ctime.Sec == began.Sec && st.ctime.Nsec >= began.Nsec}, true
		}
		return nil, false
	}
	defer f.Close()
	d := &treeDir{dev: st.dev, ino: st.ino, ctime: st.ctime, found: map[string]uint64{},
		racy: st.ctime.Sec > began.Sec || st.ctime.Sec == began.Sec && st.ctime.Nsec >= began.Nsec}
	if st.mayShut {
		if _, shut := shutDir(path); shut {
			d.shut = true // listed, but its entries cannot be looked at (r--)
			return d, true
		}
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, false
	}
	for _, de := range des {
		name := de.Name()
		if gate.NameIn(t.names, name) || !de.IsDir() && t.shadow.shadows(path, name) {
			if info, err := de.Info(); err == nil {
				if ino, ok := inodeOf(filepath.Join(path, name), info); ok {
					d.found[name] = ino
				} else {
					d.found[name] = 1
				}
			}
			continue
		}
		if de.Type()&os.ModeSymlink != 0 {
			if info, err := de.Info(); err == nil {
				if ino, ok := inodeOf(filepath.Join(path, name), info); ok {
					if d.links == nil {
						d.links = map[string]uint64{}
					}
					d.links[name] = ino
				}
			}
			continue
		}
		// Every other directory is walked, one renamed out of use too: a
		// name is no proof of what is below it (a repository could hide in
		// a directory named like one eukhe renamed).
		if de.IsDir() {
			d.subdirs = append(d.subdirs, name)
		}
	}
	return d, true
}

// reopenRoots gives each root a step shut (chmod 000 or 100 of the
// workspace) its owner's read and search bits back, before the map is
// looked at: a root is never renamed out of use as a shut directory below
// it is (the twentieth red team's: eukhe renamed the whole workspace,
// outside the roots, and every later step failed), and what the step
// made in it before it shut it is then seen and judged as in any
// directory, while the directories below it, seen again, are not taken
// for new. The other bits stay as the step left them. A root that cannot
// be opened (not the user's) stays shut: a writing process is refused
// while it is (blindRefusal).
func reopenRoots(roots []string) {
	for _, r := range roots {
		if _, shut := shutDir(r); shut {
			giveOwnerSight(r)
		}
	}
}

// opened tells whether a shut directory the last refresh met is no longer
// shut (the user opened it): its entries must be listed before the next
// process, not a refresh later. t.mu is held.
func (t *protectedTree) opened() bool {
	for _, p := range t.shut {
		if _, shut := shutDir(p); !shut {
			return true
		}
	}
	return false
}

// shutDirs are the shut directories the last refresh met (treeDir.shut).
func (t *protectedTree) shutDirs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.shut)
}

// forget drops a directory and everything below it from the map.
func (t *protectedTree) forget(path string) {
	t.live.unwatch(path)
	for p := range t.dirs {
		if atOrBelow(p, path) {
			delete(t.dirs, p)
		}
	}
}

// maxOutLinks bounds the links kept to look at again (outLinks).
const maxOutLinks = 10_000

// newLink judges a link a step made: one that leads to a repository is
// made (renamed out of use); one that leads out of the roots or nowhere
// yet is kept to look at again at each refresh; past maxOutLinks kept,
// it is made too.
func (t *protectedTree) newLink(made []string, p string, ino uint64) []string {
	if strings.Contains(filepath.Base(p), refusedSuffix) {
		if k, ok := keyOf(p); ok {
			if given, ok := renamedOut.Load(k); ok && given == p {
				return made // under the name eukhe gave it
			}
		}
	}
	if leadsToRepository(p, t.roots, t.names, t.shadow) {
		return append(made, p)
	}
	// one out of the roots, or one named like a relative PATH entry's
	// ending (its target's commands may come later), is looked at again
	if leadsOut(p, t.roots) || t.shadow.linkNamedLike(p) {
		if len(t.outLinks) >= maxOutLinks {
			// more than can be looked at again (the sixth red team filled
			// the list first): one that cannot be kept is not left in use
			return append(made, p)
		}
		t.outLinks[p] = ino
	}
	return made
}

// leadsOut reports whether the link at path leads nowhere (yet) or out of
// the roots.
func leadsOut(path string, roots []string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return true
	}
	return !slices.ContainsFunc(roots, func(r string) bool { return atOrBelow(real, r) })
}

// leadsToRepository reports whether the link at path leads out of the
// roots into a directory git or an editor would take as a repository or
// a project with config (the fourth red team): one holding a protected
// name, or below a directory holding .git, or itself a bare repository.
// A process that may not make a .git in the roots could otherwise make
// one where it may write (the session's temporary directory) and link it
// in: the user's git in the linked directory would obey its config.
//
// With sh, a link that makes a shadow is judged the same (the seventh red
// team's sub/bin -> tools, tools holding ls, PATH "./bin"): the user's
// shell reaches the target's directories by the link's name, so a
// directory reached at a path ending like a relative PATH entry, holding
// an entry named like a command, is a shadow made — in the roots, only
// the path the link's name begins (the map sees the rest by its own
// names), out of them, every directory the walk below reaches.
func leadsToRepository(path string, roots, names []string, sh *pathShadow) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	for _, r := range roots {
		if atOrBelow(real, r) {
			return sh.shadowThrough(path, real) // the map looks there itself
		}
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return false
	}
	has := func(dir, name string) bool { _, err := os.Lstat(filepath.Join(dir, name)); return err == nil }
	for _, n := range names {
		if has(real, n) {
			return true
		}
	}
	repo := func(d string) bool { return has(d, ".git") || has(d, "HEAD") && has(d, "objects") && has(d, "refs") }
	if repoAbove(real, repo) {
		return true
	}
	// and below it, a few levels (an editor looks for repositories one
	// level down; the fifth red team linked the parent of one)
	return repositoryBelow(real, path, roots, repo, sh)
}

// repoAbove reports whether d or a directory above it is a repository.
// It stops at the top, where the parent is the directory itself (/, or
// C:\ on Windows, where it went round at C:\ for ever: it ended at "/").
func repoAbove(d string, repo func(string) bool) bool {
	for ; ; d = filepath.Dir(d) {
		if repo(d) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// atOrBelow reports whether the path p is dir or below it, in the
// system's spelling of paths (filepath's: '\' on Windows, where
// dir+"/" was no prefix of any path below dir).
func atOrBelow(p, dir string) bool {
	sep := string(filepath.Separator)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, sep)+sep)
}

// repositoryBelow looks for a repository in the directories below dir,
// breadth first, at any depth, following the links it meets there as the
// user's git does (the seventh red team's: a link to a repository, into
// the middle of one, or to where one is made later, the link kept and
// looked at again): a link's target and the directories above it are
// looked at, and it is walked in turn, each directory once; a target in
// the roots is the map's. With more than 5,000 directories and links it
// cannot tell, and says yes (the sixth red team hid one deeper than a
// bounded look): a step's link to so large a tree outside the roots is
// renamed out of use, and the reply says so.
// via is the path the user reaches dir by (the link's): with sh, a
// directory reached at a path ending like a relative PATH entry that
// holds an entry named like a command is a shadow, and counts as yes.
func repositoryBelow(dir, via string, roots []string, repo func(string) bool, sh *pathShadow) bool {
	type at struct{ real, via string }
	queue, budget := []at{{dir, via}}, 5000
	seen := map[string]bool{dir: true}
	for len(queue) > 0 {
		if budget--; budget < 0 {
			return true
		}
		d, v := queue[0].real, queue[0].via
		queue = queue[1:]
		des, err := readDirUnsorted(d)
		if err != nil {
			continue
		}
		if sh != nil && sh.endsLike(v) && slices.ContainsFunc(des, func(de os.DirEntry) bool { return sh.commands[de.Name()] }) {
			return true
		}
		for _, de := range des {
			p := filepath.Join(d, de.Name())
			switch {
			case de.IsDir():
				if repo(p) {
					return true
				}
			case de.Type()&os.ModeSymlink != 0:
				if budget--; budget < 0 {
					return true
				}
				real, err := filepath.EvalSymlinks(p)
				if err != nil || seen[real] || slices.ContainsFunc(roots, func(r string) bool { return atOrBelow(real, r) }) {
					continue // dangling now: the link above it is kept and looked at again
				}
				if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
					continue
				}
				if repoAbove(real, repo) {
					return true
				}
				p = real
			default:
				continue
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, at{p, filepath.Join(v, de.Name())})
			}
		}
	}
	return false
}
