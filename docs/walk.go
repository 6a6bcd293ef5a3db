package docs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// WalkClass is the one class each walked entry ends in
// (grep_accounts_every_file): the classes of a walk sum to the walk.
type WalkClass int

const (
	Searched      WalkClass = iota // a file searched (grep) or considered (glob)
	Directory                      // a directory walked into
	Filtered                       // a file the glob argument leaves out
	Binary                         // a NUL byte in its first block
	Part                           // searched only up to a NUL byte past its first block
	OtherEncoding                  // not UTF-8
	OverLimit                      // over MaxSnapshotFileBytes
	Unreadable                     // could not be read
	Ignored                        // by .gitignore or .git/info/exclude
	Excluded                       // by the grep.excludes setting
	GitDir                         // a .git directory
	Symlink                        // not followed
	TempFile                       // a writer's temporary file (never shown by name)
	WalkError                      // a directory that could not be listed, a file gone mid-walk
	SecretName                     // another name (a hard link) of a secret file: never searched
	numClasses
)

// skipped tells whether a class is a gap the reply must note
// (grep_notes_every_gap): everything but what was searched, walked into or
// left out by the caller's own glob.
func (c WalkClass) skipped() bool { return c > Filtered }

// what says, for a notice, how many of a class's entries there are, what
// they are and why they were skipped.
func (c WalkClass) what(n int) string {
	switch c {
	case Binary:
		return Count(n, "binary file") + " not searched (a NUL byte in the first 8 KiB)"
	case Part:
		return Count(n, "file") + " searched only in part, up to a NUL byte; their rows have no tag"
	case OtherEncoding:
		return Count(n, "file") + " not UTF-8, not searched (read names the encoding)"
	case OverLimit:
		return Count(n, "file") + " over the 4 MiB limit, not searched (read in ranges, or grep with bash)"
	case Unreadable:
		return Count(n, "file") + " that could not be read"
	case Ignored:
		return Count(n, "entry") + " ignored by .gitignore (grep or glob with noIgnore to include them)"
	case Excluded:
		return Count(n, "entry") + " excluded by the grep.excludes setting"
	case GitDir:
		return Count(n, ".git directory") + " not walked"
	case Symlink:
		return Count(n, "symbolic link") + " not followed (name one as the path to search it)"
	case TempFile:
		return Count(n, "writer temporary file") + " hidden"
	case WalkError:
		return Count(n, "walk error")
	case SecretName:
		return Count(n, "file") + " not searched: another name (a hard link) of a secret file, which is read only with the user's yes (read it by this name to be asked)"
	}
	return ""
}

// Tally counts a walk's entries by class, with a few names of each.
type Tally struct {
	mu       sync.Mutex
	Count    [numClasses]int
	Examples [numClasses][]string
	Errors   []string
	// Stopped tells that the walk's context was cancelled while it ran:
	// it left entries unwalked, so the counts are of what it got to.
	Stopped bool
}

// stop notes that the walk left something unwalked because it was
// cancelled.
func (t *Tally) stop() {
	t.mu.Lock()
	t.Stopped = true
	t.mu.Unlock()
}

const tallyExamples = 3

func (t *Tally) add(c WalkClass, shown string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Count[c]++
	if c.skipped() && c != TempFile && len(t.Examples[c]) < tallyExamples {
		t.Examples[c] = append(t.Examples[c], shown)
	}
}

// Total is the number of entries walked.
func (t *Tally) Total() int {
	n := 0
	for _, c := range t.Count {
		n += c
	}
	return n
}

// Notices are one line per skipped class that is not empty.
func (t *Tally) Notices() []string {
	var out []string
	for c := WalkClass(0); c < numClasses; c++ {
		if !c.skipped() || t.Count[c] == 0 {
			continue
		}
		s := "[" + c.what(t.Count[c])
		if ex := t.Examples[c]; len(ex) > 0 {
			s += ": " + strings.Join(ex, ", ")
			if t.Count[c] > len(ex) {
				s += ", ..."
			}
		}
		out = append(out, s+"]")
	}
	return out
}

// walkItem is a directory or file waiting to be walked.
type walkItem struct {
	abs   string
	rel   string   // slash path under the walk's start, "" for the start
	shown string   // as the model sees it
	parts []string // segments from the repository top, for ignore rules
	node  *ignoreNode
	dir   bool
}

// visitor is handed each file of a walk: its absolute path, its slash
// path under the walk's start, and its name for the model; it returns the
// file's class.
type visitor func(abs, rel, shown string) WalkClass

// walker walks a tree through the Store in parallel: directories are
// listed, ignore files read on the way down, and each file handed to visit.
type walker struct {
	store    Store
	src      *below
	excludes []*pathFilter
	noIgnore bool
	visit    visitor
	tally    *Tally

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []walkItem
	pending int
}

// walkTree walks the directory start, until ctx is cancelled.
func (t *Tools) walkTree(ctx context.Context, start string, noIgnore bool, visit visitor) *Tally {
	src, err := openBelow(t.Store, start, false)
	if err != nil {
		tally := &Tally{}
		tally.add(Symlink, t.Display(start))
		return tally
	}
	defer src.close()
	return t.walkBelow(ctx, src, start, noIgnore, "", "", visit)
}

// walkBelow walks the directory start, listing through src (so no link
// below start is followed, below.go) and, when what is not "", tells the
// call's progress sink how the walk of tool goes (progress.go). The visitor reads each file
// through the same src. When ctx is cancelled, every worker stops before
// its next directory or file and the tally says it Stopped.
func (t *Tools) walkBelow(ctx context.Context, src *below, start string, noIgnore bool, tool, what string, visit visitor) *Tally {
	w := &walker{store: t.Store, src: src, noIgnore: noIgnore, visit: visit, tally: &Tally{}}
	if what != "" {
		defer t.watchWalk(ctx, tool, what, w.tally)()
	}
	if t.Excludes != nil {
		for _, p := range t.Excludes() {
			if f, err := newPathFilter(p); err == nil && f != nil && !f.negate {
				w.excludes = append(w.excludes, f)
			}
		}
	}
	w.cond = sync.NewCond(&w.mu)
	top := gitTop(start)
	if top == "" {
		top = start
	}
	var node *ignoreNode
	if !noIgnore {
		node = w.ancestors(top, start)
	}
	rel, _ := filepath.Rel(top, start)
	w.push(walkItem{abs: start, shown: t.Display(start), parts: splitRel(rel), node: node, dir: true})
	n := max(2, runtime.GOMAXPROCS(0)+1)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { w.work(ctx) })
	}
	wg.Wait()
	return w.tally
}

// ancestors loads .git/info/exclude and the .gitignore files from the
// repository top down to start's parent.
func (w *walker) ancestors(top, start string) *ignoreNode {
	var node *ignoreNode
	if b, err := os.ReadFile(filepath.Join(top, ".git", "info", "exclude")); err == nil {
		node = node.child(b, nil)
	}
	rel, _ := filepath.Rel(top, start)
	parts := splitRel(rel)
	dir := top
	for i := range parts {
		node = w.loadIgnore(node, dir, parts[:i])
		dir = filepath.Join(dir, parts[i])
	}
	return node
}

func (w *walker) loadIgnore(node *ignoreNode, dir string, parts []string) *ignoreNode {
	snap, err := w.store.Read(filepath.Join(dir, ".gitignore"))
	if err != nil || !snap.Stat.Exists || snap.Stat.Dir {
		return node
	}
	defer snap.Release()
	return node.child(snap.Data, append([]string(nil), parts...))
}

// loadIgnoreBelow loads the .gitignore of a walked directory through the
// walk's src: a link is never followed, even one made since the listing.
func (w *walker) loadIgnoreBelow(node *ignoreNode, it walkItem) *ignoreNode {
	snap, err := w.src.read(filepath.Join(it.abs, ".gitignore"), joinSlash(it.rel, ".gitignore"))
	if err != nil || !snap.Stat.Exists || snap.Stat.Dir {
		return node
	}
	defer snap.Release()
	return node.child(snap.Data, append([]string(nil), it.parts...))
}

func (w *walker) push(items ...walkItem) {
	w.mu.Lock()
	w.queue = append(w.queue, items...)
	w.pending += len(items)
	w.mu.Unlock()
	for range min(len(items), 4) {
		w.cond.Signal()
	}
}

func (w *walker) work(ctx context.Context) {
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && w.pending > 0 {
			w.cond.Wait()
		}
		if w.pending == 0 {
			w.mu.Unlock()
			return
		}
		it := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.mu.Unlock()
		switch {
		case done(ctx):
			w.tally.stop() // left unwalked: the queue drains without work
		case it.dir:
			w.walkDir(ctx, it)
		default:
			w.tally.add(w.visit(it.abs, it.rel, it.shown), it.shown)
		}
		w.mu.Lock()
		w.pending--
		done := w.pending == 0
		w.mu.Unlock()
		if done {
			w.cond.Broadcast()
		}
	}
}

func (w *walker) walkDir(ctx context.Context, it walkItem) {
	shown := it.shown
	es, err := w.src.list(it.abs, it.rel)
	if errors.Is(err, ErrLinkBelow) {
		w.tally.add(Symlink, shown) // made a link since it was listed
		return
	}
	if err != nil {
		w.tally.add(WalkError, shown)
		w.tally.mu.Lock()
		w.tally.Errors = append(w.tally.Errors, fmt.Sprintf("%s: %v", shown, err))
		w.tally.mu.Unlock()
		return
	}
	w.tally.add(Directory, shown)
	if done(ctx) {
		w.tally.stop() // listed, but nothing under it read
		return
	}
	node := it.node
	if !w.noIgnore {
		for _, e := range es {
			if e.Name == ".gitignore" && !e.Dir && !e.Link {
				node = w.loadIgnoreBelow(node, it)
				break
			}
		}
	}
	var dirs []walkItem
	files := make([]walkItem, 0, len(es))
	// A file's segments are used only here, for the ignore rules: they
	// share one slice; a directory's are kept for its entries.
	fileParts := append(it.parts[:len(it.parts):len(it.parts)], "")
	for _, e := range es {
		rel := joinSlash(it.rel, e.Name)
		child := walkItem{
			abs:  it.abs + string(filepath.Separator) + e.Name,
			rel:  rel,
			node: node,
			dir:  e.Dir,
		}
		if it.shown == it.rel {
			child.shown = rel // the walk starts at the display root: one string
		} else {
			child.shown = joinSlash(it.shown, e.Name)
		}
		if e.Dir {
			child.parts = append(it.parts[:len(it.parts):len(it.parts)], e.Name)
		} else {
			fileParts[len(fileParts)-1] = e.Name
			child.parts = fileParts
		}
		var c WalkClass = -1
		switch {
		case e.Name == ".git":
			c = GitDir
		case IsTemp(e.Name):
			c = TempFile
		case e.Link:
			c = Symlink
		case !w.noIgnore && node.Ignored(child.parts, e.Dir):
			c = Ignored
		case w.excluded(child.shown):
			c = Excluded
		case e.Dir:
			dirs = append(dirs, child)
		default:
			child.parts = nil // fileParts moves on to the next entry
			files = append(files, child)
		}
		if c >= 0 {
			w.tally.add(c, child.shown)
		}
	}
	// Directories go to the shared queue; this worker searches the files
	// itself, so the queue (and the scheduler) sees one hand-off a
	// directory, not one a file.
	if len(dirs) > 0 {
		w.push(dirs...)
	}
	for _, f := range files {
		if done(ctx) {
			w.tally.stop()
			return
		}
		w.tally.add(w.visit(f.abs, f.rel, f.shown), f.shown)
	}
}

func joinSlash(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// excluded tells whether the grep.excludes setting leaves a path out.
func (w *walker) excluded(shown string) bool {
	for _, f := range w.excludes {
		if f.match(shown) {
			return true
		}
	}
	return false
}
