package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Disk is the Store of files on disk, and the disk's Publisher: the
// seed's writer (S8.1, S8.4, S8.5) under the commit engine of commit.go.
type Disk struct {
	// Fault, when set, runs before each step of a commit ("lock",
	// "journal", "temp", "write", "fsync", "rename", "link", "unlink",
	// "dirsync", "mkdir", "discard", "unjournal") with the path it
	// touches; an error makes that step fail (a failed "discard" leaves
	// the temp file, as a crash would). It runs in one goroutine, in the
	// commit's order; a temp file's "temp", "write" and "fsync" run
	// together before that file is written. Tests inject failures through
	// it; failing every step from one on is a crash there.
	Fault func(step, path string) error
	// Journal is the directory of the intent journals of this root
	// (JournalDir); "" keeps none, and a multi-file commit is then not
	// atomic across a crash.
	Journal string
	// Root is the workspace root the journals are kept for: a journal
	// left behind is finished only when every file it names is under it.
	// "" checks nothing.
	Root string
	// Judge, when set, judges each path a journal left behind names
	// before recovery acts on it (JournalAt.Judge).
	Judge func(real string) string
	pid   int
	n     atomic.Int64

	mu        sync.Mutex
	recovered []Recovery // found by Recover, not yet told (TakeRecovered)
}

// NewDisk is a disk Store.
func NewDisk() *Disk { return &Disk{pid: os.Getpid()} }

var readPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// maxPooled is the largest buffer a pool keeps: one that held a larger
// file (a range read of a 50 MB file) goes to the collector, so the
// memory is given back after the call (agent's give-back) instead of
// staying in the pool for the life of the session.
const maxPooled = 8 << 20

// putPooled returns a buffer to pool p unless it is over maxPooled.
func putPooled(p *sync.Pool, bp *[]byte, b []byte) {
	if cap(b) > maxPooled {
		return
	}
	*bp = b[:0]
	p.Put(bp)
}

// Stat stats a path, following a symlink.
func (d *Disk) Stat(path string) (Stat, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if isNotExist(err) {
			return Stat{}, nil
		}
		return Stat{}, err
	}
	return Stat{Exists: true, Dir: fi.IsDir(), Mode: fi.Mode(), Size: fi.Size(), MTime: fi.ModTime()}, nil
}

// List reads a directory's entries, sorted by name.
func (d *Disk) List(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		e := Entry{Name: de.Name(), Dir: de.IsDir(), Link: de.Type()&fs.ModeSymlink != 0}
		if e.Link {
			if fi, err := os.Stat(filepath.Join(dir, de.Name())); err == nil {
				e.Dir = fi.IsDir()
			}
		}
		out = append(out, e)
	}
	return out, nil
}

func (d *Disk) fault(step, path string) error {
	if d.Fault == nil {
		return nil
	}
	if err := d.Fault(step, path); err != nil {
		return fmt.Errorf("%s %s: %w", step, path, err)
	}
	return nil
}

// Commit is S8.1 on disk: the commit engine with the disk as publisher,
// and for changes this disk began (Begin) the batch's journal and temp
// files.
func (d *Disk) Commit(cs []Change) Committed {
	if b := d.begunIn(cs); b != nil {
		e := engine{pub: batchPub{d, b}, j: d.journalAt(), fault: d.Fault, begun: &b.begun}
		return e.commit(cs)
	}
	return CommitVia(d, d.journalAt(), d.Fault, cs)
}

// Check is the disk's own refusal of a change: none (the engine's checks
// are all of the disk's).
func (d *Disk) Check(*Pending) string { return "" }

// journalAt is where d keeps its journals and how they are recovered.
func (d *Disk) journalAt() JournalAt {
	return JournalAt{Dir: d.Journal, Root: d.Root, Judge: d.Judge}
}

// Recover finishes the journals of interrupted commits under d.Journal
// (see journal.go) and says what it did; nothing when there were none.
// What it did is also kept for TakeRecovered: a process runs it at its
// start, and its first session's first reply tells the model.
func (d *Disk) Recover() []Recovery {
	if d.Journal == "" {
		return nil
	}
	rs := recoverDead(d.journalAt())
	d.mu.Lock()
	d.recovered = append(d.recovered, rs...)
	d.mu.Unlock()
	return rs
}

// TakeRecovered gives what Recover did that was not told yet, once.
func (d *Disk) TakeRecovered() []Recovery {
	d.mu.Lock()
	defer d.mu.Unlock()
	rs := d.recovered
	d.recovered = nil
	return rs
}

// Lstat tells what is at a path without following a last symlink.
func (d *Disk) Lstat(path string) (Stat, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if isNotExist(err) {
			return Stat{}, nil
		}
		return Stat{}, err
	}
	return Stat{Exists: true, Dir: fi.IsDir(), Mode: fi.Mode(), Size: fi.Size(), MTime: fi.ModTime()}, nil
}

// Current is the file's bytes on disk.
func (d *Disk) Current(path string) (Snapshot, error) { return d.Read(path) }

// Lock locks, in sorted order, the nearest existing directory of every
// path (flock: only eukhe writers honour it; the byte check catches the
// others).
func (d *Disk) Lock(paths []string) (unlock func(), failed int, err error) {
	return lockDirs(paths, d.fault)
}

// existingDir is the nearest directory of dir that exists, with its
// symlinks resolved: two spellings of one directory are one lock (a
// second flock of it from this process would wait for the first).
func existingDir(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				return r
			}
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return dir
		}
		dir = up
	}
}

// Prepare makes every change ready to publish, in order: the dead temp
// files of its target swept (S8.5), its directory made (a created file, a
// move's destination), its new bytes written to a temp file beside the
// target and fsync'd. The temp files are written side by side, so the
// disk flushes them together; the Fault hook still runs for each step in
// order, before it. With back it prepares the old bytes of landed changes
// beside the file they go back to (none for a created file, which is
// removed, or a move whose source stays). Nothing is published.
func (d *Disk) Prepare(ps []*Pending, back bool) (int, error) {
	if !back {
		d.sweep(ps)
	}
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	stop, stopErr := len(ps), error(nil)
	for i, p := range ps {
		data, at := p.New, p.Target()
		if back {
			data, at = p.Old, p.Real
			if _, err := os.Lstat(p.Real); p.Create || (p.RealDest != "" && err == nil) {
				continue // nothing to put back: remove the file or the destination
			}
		} else if p.Create || p.RealDest != "" {
			dir := filepath.Dir(at)
			err := d.fault("mkdir", dir)
			if err == nil {
				err = os.MkdirAll(dir, 0o755)
			}
			if err != nil {
				stop, stopErr = i, err
				break
			}
		}
		if !back && !p.Create && p.RealDest == "" {
			p.old = holdFile(at)
		}
		if !back && len(ps) > 1 && !p.Create {
			if err := d.keepOld(p); err != nil {
				stop, stopErr = i, err
				break
			}
		}
		if back && p.kept != nil {
			// kept before the first publish: the restore takes no new space
			p.temp, p.kept, p.Staged = p.kept, nil, p.kept.path
			continue
		}
		if data == nil {
			continue
		}
		if err := d.tempFaults(at); err != nil {
			stop, stopErr = i, err
			break
		}
		if !back && d.adopt(p) {
			continue
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			p.temp, errs[i] = d.writeTemp(at, data, p.Mode)
			if p.temp != nil {
				p.Staged = p.temp.path
			}
			<-slots
		}()
	}
	wg.Wait()
	for i, err := range errs[:stop] {
		if err != nil {
			return i, err
		}
	}
	// The flushes run side by side: the file system commits them together
	// (a group commit), where one after another each waits for the last.
	syncErrs := make([]error, stop)
	eachParallelN(syncWorkers, stop, func(i int) {
		for _, t := range []*tempFile{ps[i].temp, ps[i].kept} {
			if t != nil && !t.durable && syncErrs[i] == nil {
				syncErrs[i] = t.sync()
			}
		}
	})
	for i, err := range syncErrs {
		if err != nil {
			return i, err
		}
	}
	if stopErr != nil {
		return stop, stopErr
	}
	return 0, nil
}

// syncWorkers is how many temp files are flushed at once.
const syncWorkers = 16

// tempFaults runs the Fault hook for the steps of writing a temp file.
func (d *Disk) tempFaults(target string) error {
	for _, step := range []string{"temp", "write", "fsync"} {
		if err := d.fault(step, target); err != nil {
			return err
		}
	}
	return nil
}

// Publish makes one prepared change land: its temp file renamed over the
// file, or hard-linked to a new name (which never replaces: S8.4), or for
// a bare move the file itself linked to its new name; a move then removes
// its source. With back it puts the old bytes back: a created file
// removed, a move's source linked back (unless it stays) and its
// destination removed, a file's old bytes renamed over it.
func (d *Disk) Publish(p *Pending, back bool) Outcome {
	defer d.Discard(p)
	if back {
		if err := d.unpublish(p); err != nil {
			return Outcome{Fate: Failed, Err: err}
		}
		o := Outcome{Fate: Landed}
		if p.revealErr != nil {
			o.Warning = p.revealErr.Error()
		}
		return o
	}
	var err error
	switch {
	case p.temp == nil: // a move that keeps the bytes
		err = d.link(p.Real, p.Target())
	case p.Create || p.RealDest != "":
		err = d.linkTemp(p.temp, p.Target())
	default:
		err = d.fault("rename", p.Target())
		if err == nil {
			err = p.temp.untouched() // right before: nothing opened it
		}
		if err == nil {
			err = renameReplace(p.temp.path, p.Target())
		}
		if err == nil {
			p.temp.path = "" // it is the file now
		}
	}
	if err != nil {
		return Outcome{Fate: Failed, Err: err}
	}
	p.landed = true
	var warn string
	if p.temp != nil {
		if err := p.temp.reveal(); err != nil {
			warn = err.Error()
		}
	}
	if p.RealDest != "" {
		err := d.fault("unlink", p.Real)
		if err == nil {
			err = removeSource(p.Real)
		}
		if err != nil {
			warn = joinWarn(warn, fmt.Sprintf("moved to %s, but the source %s stays (%v)", p.MoveTo, p.Path, err))
		}
	}
	return Outcome{Fate: Landed, Warning: warn}
}

// unpublish puts a landed change's old bytes back (beyond the seed: the
// commit is a true transaction).
func (d *Disk) unpublish(p *Pending) error {
	switch {
	case p.Create:
		if err := d.fault("unlink", p.Real); err != nil {
			return err
		}
		return os.Remove(p.Real)
	case p.RealDest != "":
		if p.temp != nil {
			if err := d.linkTemp(p.temp, p.Real); err != nil {
				return err
			}
			p.revealErr = p.temp.reveal()
		}
		if err := d.fault("unlink", p.RealDest); err != nil {
			return err
		}
		return os.Remove(p.RealDest)
	}
	if p.temp == nil {
		return fmt.Errorf("no old bytes prepared for %s", p.Path)
	}
	err := d.fault("rename", p.Real)
	if err == nil {
		err = p.temp.untouched()
	}
	if err == nil {
		err = renameReplace(p.temp.path, p.Real)
	}
	if err == nil {
		p.temp.path = ""
		p.revealErr = p.temp.reveal()
	}
	return err
}

// Discard removes a prepared temp file that was not published, and lets
// go of the file it would have replaced.
func (d *Disk) Discard(p *Pending) {
	if !p.landed {
		release([]*Pending{p})
		d.dropKept(p)
	}
	dropEarly(p)
	t := p.temp
	if t == nil {
		return
	}
	p.temp = nil
	if t.path != "" && d.fault("discard", t.path) != nil {
		t.path = "" // a crash: the file stays, as it would
	}
	t.discard()
}

// Finish syncs once each directory that the landed changes changed; a
// failure there is a warning on each change it concerns (a landed write
// with a warning, S8.1). Without outcomes (after a restore) it syncs the
// directories of every change, and a failure is not reported: the bytes
// are back either way.
func (d *Disk) Finish(ps []*Pending, outs []Outcome) {
	defer func() { go release(ps) }()
	for _, p := range ps {
		d.dropKept(p) // before the journal ends: a crash leaves no name the journal does not list
	}
	type touch struct {
		i    int
		left bool // the directory a move's source left
	}
	var dirs []string
	by := map[string][]touch{}
	add := func(dir string, t touch) {
		if _, ok := by[dir]; !ok {
			dirs = append(dirs, dir)
		}
		by[dir] = append(by[dir], t)
	}
	for i, p := range ps {
		if outs != nil && outs[i].Fate != Landed {
			continue
		}
		add(filepath.Dir(p.Target()), touch{i: i})
		if p.RealDest != "" && filepath.Dir(p.Real) != filepath.Dir(p.Target()) {
			add(filepath.Dir(p.Real), touch{i: i, left: true})
		}
	}
	for _, dir := range dirs {
		err := d.fault("dirsync", dir)
		if err == nil {
			err = syncDir(dir)
		}
		if err == nil || outs == nil {
			continue
		}
		for _, t := range by[dir] {
			p := ps[t.i]
			w := fmt.Sprintf("%s landed, but syncing its directory failed (%v): a crash now could lose it", filepath.Base(p.Target()), err)
			if t.left {
				w = fmt.Sprintf("%s moved, but syncing the directory it left failed (%v): after a crash it could be back there", filepath.Base(p.Real), err)
			}
			outs[t.i].Warning = joinWarn(outs[t.i].Warning, w)
		}
	}
}

func joinWarn(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// linkTemp links a temp file to the new name to, checked untouched right
// before, and removes its temp name: from then on only to reaches it.
func (d *Disk) linkTemp(t *tempFile, to string) error {
	err := d.fault("link", to)
	if err == nil {
		err = t.untouched()
	}
	if err == nil {
		err = os.Link(t.path, to)
	}
	if err == nil {
		t.unname()
	}
	return err
}

func (d *Disk) link(from, to string) error {
	if err := d.fault("link", to); err != nil {
		return err
	}
	return os.Link(from, to)
}

// tempFile is a temp file beside its target, locked by this writer (S8.5)
// until it is discarded.
type tempFile struct {
	path    string // "" once it became the target
	f       *os.File
	durable bool // synced already (a kept file's second name, or its copy once synced)
	// mode is what the file gets once it is the target; until then it
	// has none (0000), so no other process opens it: a step running
	// during the commit cannot read a secret's new bytes or change a
	// protected file's before they land. A kept second name (linked) has
	// its file's own mode and is never revealed.
	mode   fs.FileMode
	linked bool
	made   string // the path it was made at (liveTemps)
}

// reveal gives a temp file that became the target (renamed over it, or
// linked to it and its temp name removed: reachable by the target's name
// only, which the sandbox guards) its mode.
func (t *tempFile) reveal() error {
	if t.linked {
		return nil
	}
	if err := t.f.Chmod(t.mode); err != nil {
		return fmt.Errorf("it landed, but giving it its mode %04o failed (%v): it has none now; chmod it", t.mode, err)
	}
	return nil
}

// unname removes a temp file's own name once it was linked to the
// target: the file is then reachable by the target's name only.
func (t *tempFile) unname() {
	if t.path != "" && os.Remove(t.path) == nil {
		t.path = ""
	}
}

// discard closes a temp file, which ends its lock, and removes it unless
// it became the target. A nil tempFile is nothing to discard.
func (t *tempFile) discard() {
	if t == nil || t.f == nil {
		return
	}
	if t.path != "" {
		os.Remove(t.path)
	}
	liveTemps.Delete(t.made)
	t.f.Close()
	t.f = nil
}

// liveTemps are the temp files this process made and has not discarded
// (by the path they were made at): a sweep of this process leaves these
// and takes its own others (removeModelessAt), which a writer's lock
// cannot tell when the file may not be opened.
var liveTemps sync.Map

// writeTemp writes data to a new temp file beside target, with the mode
// given, locked by this writer, and starts its writeback. target is a
// resolved path: the temp file is made without following any link on it.
func (d *Disk) writeTemp(target string, data []byte, mode fs.FileMode) (*tempFile, error) {
	dir, name := filepath.Split(target)
	t := &tempFile{}
	for {
		t.path = filepath.Join(dir, TempName(name, d.pid, int(d.n.Add(1))))
		// registered before it exists: a sweep of this process that sees
		// it sees it live (removeModelessAt)
		liveTemps.Store(t.path, true)
		f, err := createNoLinks(t.path)
		if errors.Is(err, fs.ErrExist) {
			liveTemps.Delete(t.path)
			continue
		}
		if err != nil {
			liveTemps.Delete(t.path)
			return nil, err
		}
		if err := lockTemp(f); err != nil || !sameFile(f, t.path) {
			liveTemps.Delete(t.path)
			f.Close() // a sweep took it between create and lock: take another name
			continue
		}
		t.f, t.made = f, t.path
		break
	}
	t.mode = mode.Perm() // given once it is the target (reveal)
	_, err := t.f.Write(data)
	if err == nil {
		// Start the writeback now, without waiting: the flushes of every
		// temp file of a commit overlap, and sync then mostly waits for
		// writes already under way (git's batch fsync does the same).
		startWriteback(t.f)
	}
	if err != nil {
		t.discard()
		return nil, err
	}
	return t, nil
}

// sync makes a temp file's bytes durable before it is published.
func (t *tempFile) sync() error {
	if err := syncData(t.f); err != nil {
		return fmt.Errorf("fsync %s: %w", t.path, err)
	}
	t.durable = true
	return nil
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// sweep removes, for each target of a change set, its temp files that no
// writer locks (S8.5).
func (d *Disk) sweep(ps []*Pending) {
	targets := make([]string, len(ps))
	for i, p := range ps {
		targets[i] = p.Target()
	}
	sweepTargets(targets)
}

// sweepTargets removes the temp files of each target that no writer locks
// (S8.5); it lists each directory once.
func sweepTargets(paths []string) {
	var dirs []string
	targets := map[string][]string{}
	for _, p := range paths {
		dir, name := filepath.Split(p)
		if _, ok := targets[dir]; !ok {
			dirs = append(dirs, dir)
		}
		targets[dir] = append(targets[dir], name)
	}
	for _, dir := range dirs {
		des, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		var names []string
		for _, de := range des {
			if IsTemp(de.Name()) {
				names = append(names, de.Name())
			}
		}
		if len(names) == 0 {
			continue
		}
		for _, target := range targets[dir] {
			for _, dead := range Sweep(names, target) {
				removeIfFree(filepath.Join(dir, dead))
			}
		}
	}
}
