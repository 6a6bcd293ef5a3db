package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Debounce is how long the watcher waits after the last change before it
// reads the files again: an editor's save is several events.
const Debounce = 50 * time.Millisecond

// Watcher keeps the settings in force as their files change on disk. It
// watches the directories (editors save by writing a new file and
// renaming it over the old one), and each directory's parent, so a
// settings directory made or removed later is seen too.
type Watcher struct {
	paths   Paths
	onEvent func(Event)
	fsw     *fsnotify.Watcher

	mu      sync.Mutex
	files   map[string]*fileState
	current Settings
	watched map[string]bool

	done chan struct{}
	wg   sync.WaitGroup
}

// fileState is one settings file as last read.
type fileState struct {
	scope Scope
	// exists and data are what was last read.
	exists bool
	data   []byte
	// good is the last version that parsed; nil when none did.
	good *File
	// broken: the file on disk is not the good version.
	broken bool
}

// Watch reads the settings files, reports their events to onEvent, and
// keeps them in force as they change until Close. onEvent is called from
// one goroutine at a time.
func Watch(p Paths, onEvent func(Event)) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the settings files: %w; without a watch, changes need a restart", err)
	}
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	w := &Watcher{paths: p, onEvent: onEvent, fsw: fsw, files: map[string]*fileState{},
		watched: map[string]bool{}, done: make(chan struct{})}
	w.files[p.UserFile] = &fileState{scope: UserScope}
	for _, f := range p.ProjectFiles {
		w.files[f] = &fileState{scope: ProjectScope}
	}
	w.mu.Lock()
	w.watchDirs()
	events := w.reloadEvents()
	w.mu.Unlock()
	for _, e := range events {
		w.onEvent(e)
	}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Current is the settings in force.
func (w *Watcher) Current() Settings {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current
}

// Files are the settings files watched: each is a protected path (G1.3).
func (w *Watcher) Files() []string { return w.paths.Files() }

// Close stops the watch.
func (w *Watcher) Close() error {
	select {
	case <-w.done:
		return nil
	default:
	}
	close(w.done)
	err := w.fsw.Close()
	w.wg.Wait()
	return err
}

func (w *Watcher) loop() {
	defer w.wg.Done()
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-w.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !w.relevant(ev.Name) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(Debounce)
			} else {
				timer.Reset(Debounce)
			}
			fire = timer.C
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.onEvent(Event{Level: Warning, File: w.paths.UserDir,
				Message: fmt.Sprintf("the settings watch reported %v; changes may be missed until the next one", err)})
		case <-fire:
			fire = nil
			w.mu.Lock()
			w.watchDirs()
			events := w.reloadEvents()
			w.mu.Unlock()
			for _, e := range events {
				w.onEvent(e)
			}
		}
	}
}

// relevant reports whether an event's path is a settings file or one of
// its ancestors.
func (w *Watcher) relevant(name string) bool {
	for f := range w.files {
		if name == f || strings.HasPrefix(f, name+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// watchDirs watches each settings file's directory and that directory's
// parent, or the nearest ancestor that exists.
func (w *Watcher) watchDirs() {
	for f := range w.files {
		dir := filepath.Dir(f)
		w.add(dir)
		for up := filepath.Dir(dir); ; up = filepath.Dir(up) {
			if w.add(up) || up == filepath.Dir(up) {
				break
			}
		}
	}
}

// add watches dir when it exists and is not watched yet; it reports
// whether dir exists.
func (w *Watcher) add(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		delete(w.watched, dir)
		return false
	}
	if !w.watched[dir] {
		if err := w.fsw.Add(dir); err == nil {
			w.watched[dir] = true
		}
	}
	return true
}

// reloadEvents reads each file that changed since it was last read,
// parses it, and puts the settings in force; it returns what to tell.
func (w *Watcher) reloadEvents() []Event {
	var events []Event
	for _, name := range w.paths.Files() {
		st := w.files[name]
		data, err := os.ReadFile(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if st.exists || st.good != nil {
				events = append(events, Event{Level: Warning, File: name, Removed: true,
					Message: "the file was removed; its settings no longer apply"})
			}
			st.exists, st.data, st.good, st.broken = false, nil, nil, false
			continue
		case err != nil:
			events = append(events, Event{Level: Error, File: name,
				Message: fmt.Sprintf("cannot read it (%v); the last good settings stay in force", err)})
			continue
		}
		if st.exists && bytes.Equal(st.data, data) {
			continue
		}
		st.exists, st.data = true, data
		f, evs := Parse(name, data, st.scope)
		if f == nil {
			events = append(events, evs...)
			st.broken = true
			continue
		}
		st.good, st.broken = f, false
		// "loaded" comes before the load's warnings (a key ignored): a
		// reader that clears a file's problems on Info (lsp's
		// settingsStatus) keeps them.
		events = append(events, Event{Level: Info, File: name, Message: "loaded; its settings are in force"})
		events = append(events, evs...)
	}
	var projects []*File
	for _, f := range w.paths.ProjectFiles {
		projects = append(projects, w.files[f].good)
	}
	w.current = Merge(w.files[w.paths.UserFile].good, projects...)
	return events
}
