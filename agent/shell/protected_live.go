package shell

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/eukhe/eukhe/gate"
)

// Protected names made while a process runs (the third red team). The
// map (protected_tree.go) finds a .git a process made when the process
// ends; until then any git the user runs there — a shell prompt showing
// the branch, the editor's git, which finds new repositories in the
// workspace — would obey its config unconfined. So the session also
// watches every directory of its map (fsnotify), and while one of its
// processes runs, a protected name that appears in a watched directory —
// made, or renamed into place — is renamed out of use at once, and a
// directory that appears is watched and looked into at once (what was
// made in it before the watch). What the process controls: the moments
// between its making a name and the watch's event (microseconds to a few
// milliseconds), and directories past the watch bound (maxLiveWatches, or
// the system's own limit on watches), which only the look after the
// process covers.

// maxLiveWatches bounds the directories one session watches (twice the
// map's bound: the map and what processes make).
const maxLiveWatches = 100_000

// liveTree is one session's watch.
type liveTree struct {
	mu      sync.Mutex
	on      bool // the session's own map: enabled by the runner
	w       *fsnotify.Watcher
	broken  bool // no watcher could be made, or the system's limit was met
	watched map[string]bool
	names   []string
	roots   []string
	id      string
	active  int      // processes running under the watch
	renamed []string // "path → new name" made while they ran, not told yet
	done    chan struct{}
	// ours are the names the watch renamed entries to (their events are
	// its own doing); a name alone proves nothing (a step can make a
	// directory named like one).
	ours map[string]bool
	// unwatched are directories made while a process ran that could not
	// be watched (the system's limit on watches, which a step can use up
	// itself): they are listed every pollEvery while a process runs.
	unwatched map[string]bool
	polling   bool
}

// pollEvery is how often the directories that could not be watched are
// listed while a process runs.
const pollEvery = 10 * time.Millisecond

// watch adds dir to the watch (made on first use).
func (l *liveTree) watch(dir string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.watchLocked(dir)
}

// enable makes the watch watch: only a session's own map is watched (a
// map made for one look is not, having no end to close it).
func (l *liveTree) enable() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = true
}

func (l *liveTree) watchLocked(dir string) bool {
	if !l.on || l.broken || l.watched[dir] {
		return false
	}
	if l.w == nil {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			l.broken = true
			return false
		}
		l.w, l.watched, l.done = w, map[string]bool{}, make(chan struct{})
		go l.loop(w, l.done)
	}
	if len(l.watched) >= maxLiveWatches {
		return false
	}
	if err := l.w.Add(dir); err != nil {
		return false
	}
	delete(l.unwatched, dir)
	l.watched[dir] = true
	return true
}

// unwatch drops every watched directory at or below path.
func (l *liveTree) unwatch(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for d := range l.watched {
		if atOrBelow(d, path) {
			_ = l.w.Remove(d)
			delete(l.watched, d)
		}
	}
}

// begin marks a process of the session running with these protected
// names; end (the function it gives) unmarks it and gives what was
// renamed out of use meanwhile.
func (l *liveTree) begin(roots, names []string, id string) (end func() []string) {
	l.mu.Lock()
	l.active++
	l.roots, l.names, l.id = roots, names, id
	l.mu.Unlock()
	return func() []string {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.active--
		out := l.renamed
		l.renamed = nil
		if l.active == 0 {
			clear(l.unwatched) // the look after the process covers them
		}
		return out
	}
}

// poll lists the directories that could not be watched, and what was
// made in them, every pollEvery while a process runs.
func (l *liveTree) poll() {
	for {
		time.Sleep(pollEvery)
		l.mu.Lock()
		if l.active == 0 || len(l.unwatched) == 0 {
			l.polling = false
			l.mu.Unlock()
			return
		}
		for dir := range l.unwatched {
			l.lookIn(dir, 0)
		}
		l.mu.Unlock()
	}
}

// close stops the watch.
func (l *liveTree) close() {
	l.mu.Lock()
	w, done := l.w, l.done
	l.w, l.watched, l.broken = nil, nil, true
	l.mu.Unlock()
	if w != nil {
		w.Close()
		<-done // the loop may be waiting for l.mu: not held here
	}
}

func (l *liveTree) loop(w *fsnotify.Watcher, done chan struct{}) {
	defer close(done)
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				l.appeared(ev.Name)
			}
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		}
	}
}

// appeared handles an entry made or renamed into a watched directory.
func (l *liveTree) appeared(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.active == 0 || l.ours[path] {
		return
	}
	l.look(path, 0)
}

// renameLocked renames path out of use and keeps what it did.
func (l *liveTree) renameLocked(path string) {
	if to, err := renameOutOfUse(path, l.id); err == nil {
		l.renamed = append(l.renamed, path+" → "+to)
		if l.ours == nil {
			l.ours = map[string]bool{}
		}
		l.ours[to] = true
	}
}

// look renames path out of use when it has a protected name, else, when
// it is a directory (not a link), watches it and looks at each entry made
// in it before the watch.
func (l *liveTree) look(path string, depth int) {
	if l.ours[path] {
		return
	}
	if gate.NameIn(l.names, filepath.Base(path)) {
		l.renameLocked(path)
		return
	}
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 && leadsToRepository(path, l.roots, l.names, nil) {
		l.renameLocked(path)
		return
	}
	if err != nil || !fi.IsDir() || depth > 64 {
		return
	}
	if !l.watched[path] && !l.watchLocked(path) {
		// not watched: listed while the process runs
		if l.unwatched == nil {
			l.unwatched = map[string]bool{}
		}
		if len(l.unwatched) < maxLiveWatches {
			l.unwatched[path] = true
		}
		if !l.polling {
			l.polling = true
			go l.poll()
		}
	}
	l.lookIn(path, depth)
}

// lookIn looks at each entry of the directory path.
func (l *liveTree) lookIn(path string, depth int) {
	des, err := os.ReadDir(path)
	if err != nil {
		return
	}
	for _, de := range des {
		p := filepath.Join(path, de.Name())
		if de.IsDir() && (l.watched[p] || l.unwatched[p]) {
			continue // seen to already
		}
		l.look(p, depth+1)
	}
}
