package docs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Disk is the Store of files on disk: the seed's writer (S8.1, S8.4, S8.5).
type Disk struct {
	// Fault, when set, runs before each step of a commit ("lock", "temp",
	// "write", "fsync", "rename", "link", "unlink", "dirsync", "mkdir") with
	// the path it touches; an error makes that step fail. It runs in one
	// goroutine, in the commit's order; a temp file's "temp", "write" and
	// "fsync" run together before that file is written. Tests inject
	// failures through it.
	Fault func(step, path string) error
	pid   int
	n     atomic.Int64
}

// NewDisk is a disk Store.
func NewDisk() *Disk { return &Disk{pid: os.Getpid()} }

var readPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// Read reads a path into a pooled buffer (files up to the snapshot limit).
func (d *Disk) Read(path string) (Snapshot, error) {
	// Raw system calls: a grep reads thousands of files, and os.File's
	// poller registration and finalizer cost more than the read itself.
	// O_NONBLOCK keeps a FIFO from blocking the open.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		if isNotExist(err) {
			return Snapshot{}, nil
		}
		return Snapshot{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	return readFD(fd, path)
}

// readFD reads an open file into a pooled buffer; path names it in errors.
func readFD(fd int, path string) (Snapshot, error) {
	var sys syscall.Stat_t
	if err := syscall.Fstat(fd, &sys); err != nil {
		return Snapshot{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	st := statOf(&sys)
	if st.Dir {
		return Snapshot{Stat: st}, nil
	}
	if !st.Mode.IsRegular() {
		return Snapshot{Stat: st}, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode.Type())
	}
	var bp *[]byte
	var buf []byte
	if st.Size > MaxSnapshotFileBytes {
		buf = make([]byte, 0, st.Size+512)
	} else {
		bp = readPool.Get().(*[]byte)
		buf = (*bp)[:0]
		if need := int(st.Size) + 512; cap(buf) < need {
			buf = make([]byte, 0, need)
		}
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			if bp != nil {
				*bp = buf[:0]
				readPool.Put(bp)
			}
			return Snapshot{}, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 {
			break
		}
	}
	st.Size = int64(len(buf))
	snap := Snapshot{Data: buf, Stat: st}
	if bp != nil {
		snap.release = func() { *bp = buf[:0]; readPool.Put(bp) }
	}
	return snap, nil
}

// statOf is the Stat of a stat(2) answer.
func statOf(s *syscall.Stat_t) Stat {
	mode := fs.FileMode(s.Mode & 0o777)
	switch s.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if s.Mode&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if s.Mode&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if s.Mode&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return Stat{
		Exists: true, Dir: mode.IsDir(), Mode: mode, Size: s.Size,
		MTime: time.Unix(s.Mtim.Sec, s.Mtim.Nsec),
	}
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

// plan is a change with its paths resolved to the files it touches: a
// symlink's target is written, the link stays.
type plan struct {
	Change
	path, dest string // the files: resolved through symlinks
	target     string // where the new bytes land: dest, else path
	mode       fs.FileMode
}

// Commit is S8.1 on disk, with restore on a failed publish. It locks and
// checks every change, then prepares every new content — a temp file
// beside each target, written, and all of them fsync'd together — so that
// a failure there publishes nothing. Then it publishes in order (a rename
// over the file, or a hard link to a new name, which never replaces),
// stops at the first failure and restores what landed, and syncs each
// directory it changed once.
func (d *Disk) Commit(cs []Change) Committed {
	res := Committed{Outcomes: make([]Outcome, len(cs))}
	ps := make([]plan, len(cs))
	for i, c := range cs {
		ps[i] = plan{Change: c, path: realPath(c.Path), mode: c.Mode}
		ps[i].target = ps[i].path
		if c.MoveTo != "" {
			ps[i].dest = realPath(c.MoveTo)
			ps[i].target = ps[i].dest
		}
	}
	if c := oneFileTwice(ps); c != nil {
		res.Conflict = c
		return res
	}
	unlock, idx, err := d.lockAll(ps)
	if err != nil {
		res.Conflict = &Conflict{Index: idx, Why: err.Error()}
		return res
	}
	defer unlock()
	for i := range ps {
		if why := d.check(&ps[i]); why != "" {
			res.Conflict = &Conflict{Index: i, Why: why}
			return res
		}
	}
	temps := make([]*tempFile, len(ps))
	defer func() {
		for _, t := range temps {
			t.discard()
		}
	}()
	if i, err := d.prepare(ps, temps); err != nil {
		res.Outcomes[i] = Outcome{Fate: Failed, Err: err}
		return res
	}
	for i := range ps {
		o := d.publish(ps[i], temps[i])
		temps[i] = nil
		res.Outcomes[i] = o
		if o.Fate == Failed {
			for j := i - 1; j >= 0; j-- {
				if err := d.restore(ps[j]); err != nil {
					res.Outcomes[j].Err = err
				} else {
					res.Outcomes[j] = Outcome{Fate: Restored}
				}
			}
			return res
		}
	}
	d.syncDirs(ps, res.Outcomes)
	return res
}

// oneFileTwice refuses a change set that names one file twice (a path and a
// symlink to it, or a directory and a link to it): the second publish would
// replace the first, and the reply would name bytes the file does not hold.
func oneFileTwice(ps []plan) *Conflict {
	owner := map[string]int{}
	for i, p := range ps {
		for _, path := range []string{p.path, p.dest} {
			if path == "" {
				continue
			}
			if j, ok := owner[path]; ok && j != i {
				return &Conflict{Index: i, Why: fmt.Sprintf("%s and %s are the same file (through a symlink); put all of its ops in one section", ps[j].named(path), p.named(path))}
			}
			owner[path] = i
		}
	}
	return nil
}

// named is the name the change set gave the file at a resolved path.
func (p plan) named(path string) string {
	if path == p.dest {
		return p.MoveTo
	}
	return p.Path
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(r, filepath.Base(p))
	}
	return p
}

// lockAll locks, in sorted order, the nearest existing directory of every
// path of the change set (flock: only eukhe writers honour it; the byte
// check catches the others).
func (d *Disk) lockAll(ps []plan) (unlock func(), idx int, err error) {
	owner := map[string]int{}
	for i, p := range ps {
		for _, path := range []string{p.path, p.dest} {
			if path == "" {
				continue
			}
			dir := existingDir(filepath.Dir(path))
			if _, ok := owner[dir]; !ok {
				owner[dir] = i
			}
		}
	}
	dirs := make([]string, 0, len(owner))
	for dir := range owner {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	var held []*os.File
	unlock = func() {
		for _, f := range held {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
	for _, dir := range dirs {
		if err := d.fault("lock", dir); err != nil {
			unlock()
			return nil, owner[dir], fmt.Errorf("could not lock %s: %v", dir, err)
		}
		f, err := os.Open(dir)
		if err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			unlock()
			return nil, owner[dir], fmt.Errorf("could not lock %s: %v", dir, err)
		}
		held = append(held, f)
	}
	return unlock, 0, nil
}

func existingDir(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return dir
		}
		dir = up
	}
}

// check is the pre-publish check of one change: "" when it may go on.
func (d *Disk) check(p *plan) string {
	if p.Still != nil {
		if err := p.Still(); err != nil {
			return err.Error()
		}
	}
	if p.Create {
		if _, err := os.Lstat(p.path); !isNotExist(err) {
			return fmt.Sprintf("%s exists now; read it and edit it with its tag, or create another name", p.Path)
		}
		if p.mode == 0 {
			p.mode = 0o644
		}
	} else {
		cur, err := d.Read(p.path)
		defer cur.Release()
		switch {
		case err != nil:
			return fmt.Sprintf("%s cannot be read to check it: %v", p.Path, err)
		case !cur.Stat.Exists:
			return fmt.Sprintf("%s is gone; read it again", p.Path)
		case !bytes.Equal(cur.Data, p.Old):
			return fmt.Sprintf("%s changed after the edit was made; read it again and redo the edit", p.Path)
		}
		p.mode = cur.Stat.Mode.Perm()
	}
	if p.dest != "" {
		if fi, err := os.Lstat(p.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(p.Path)
			return fmt.Sprintf("%s is a symbolic link (to %s); MV moves files, not links: move the link with bash (mv), or MV the file it links to", p.Path, to)
		}
		if _, err := os.Lstat(p.dest); !isNotExist(err) {
			return fmt.Sprintf("MV destination %s exists; a move never replaces a file: pick a free name", p.MoveTo)
		}
	}
	return ""
}

// prepare makes every change ready to publish, in order: the dead temp
// files of its target swept (S8.5), its directory made (a created file, a
// move's destination), its new bytes written to a temp file beside the
// target and fsync'd. The temp files are written side by side, so the
// disk flushes them together; the Fault hook still runs for each step in
// order, before it. On a failure prepare gives the index of the first
// change that failed; nothing is published.
func (d *Disk) prepare(ps []plan, temps []*tempFile) (int, error) {
	d.sweep(ps)
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	stop, stopErr := len(ps), error(nil)
	for i, p := range ps {
		if p.Create || p.dest != "" {
			dir := filepath.Dir(p.target)
			err := d.fault("mkdir", dir)
			if err == nil {
				err = os.MkdirAll(dir, 0o755)
			}
			if err != nil {
				stop, stopErr = i, err
				break
			}
		}
		if p.New == nil {
			continue
		}
		if err := d.tempFaults(p.target); err != nil {
			stop, stopErr = i, err
			break
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			temps[i], errs[i] = d.writeTemp(p.target, p.New, p.mode)
			<-slots
		}()
	}
	wg.Wait()
	for i, err := range errs[:stop] {
		if err != nil {
			return i, err
		}
	}
	for i, t := range temps[:stop] {
		if t == nil {
			continue
		}
		if err := t.sync(); err != nil {
			return i, err
		}
	}
	if stopErr != nil {
		return stop, stopErr
	}
	return 0, nil
}

// tempFaults runs the Fault hook for the steps of writing a temp file.
func (d *Disk) tempFaults(target string) error {
	for _, step := range []string{"temp", "write", "fsync"} {
		if err := d.fault(step, target); err != nil {
			return err
		}
	}
	return nil
}

// publish makes one prepared change land: its temp file renamed over the
// file, or hard-linked to a new name (which never replaces: S8.4), or for
// a bare move the file itself linked to its new name; a move then removes
// its source.
func (d *Disk) publish(p plan, t *tempFile) Outcome {
	defer t.discard()
	var err error
	switch {
	case t == nil: // a move that keeps the bytes
		err = d.link(p.path, p.target)
	case p.Create || p.dest != "":
		err = d.link(t.path, p.target)
	default:
		err = d.fault("rename", p.target)
		if err == nil {
			err = os.Rename(t.path, p.target)
		}
		if err == nil {
			t.path = "" // it is the file now
		}
	}
	if err != nil {
		return Outcome{Fate: Failed, Err: err}
	}
	var warn string
	if p.dest != "" {
		err := d.fault("unlink", p.path)
		if err == nil {
			err = os.Remove(p.path)
		}
		if err != nil {
			warn = fmt.Sprintf("moved to %s, but the source %s stays (%v)", p.MoveTo, p.Path, err)
		}
	}
	return Outcome{Fate: Landed, Warning: warn}
}

// syncDirs syncs once each directory that the landed changes changed; a
// failure there is a warning on each change it concerns (a landed write
// with a warning, S8.1).
func (d *Disk) syncDirs(ps []plan, outs []Outcome) {
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
		if outs[i].Fate != Landed {
			continue
		}
		add(filepath.Dir(p.target), touch{i: i})
		if p.dest != "" && filepath.Dir(p.path) != filepath.Dir(p.target) {
			add(filepath.Dir(p.path), touch{i: i, left: true})
		}
	}
	for _, dir := range dirs {
		err := d.syncDir(dir)
		if err == nil {
			continue
		}
		for _, t := range by[dir] {
			p := ps[t.i]
			w := fmt.Sprintf("%s landed, but syncing its directory failed (%v): a crash now could lose it", filepath.Base(p.target), err)
			if t.left {
				w = fmt.Sprintf("%s moved, but syncing the directory it left failed (%v): after a crash it could be back there", filepath.Base(p.path), err)
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

func (d *Disk) link(from, to string) error {
	if err := d.fault("link", to); err != nil {
		return err
	}
	return os.Link(from, to)
}

func (d *Disk) syncDir(dir string) error {
	if err := d.fault("dirsync", dir); err != nil {
		return err
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// tempFile is a temp file beside its target, locked by this writer (S8.5)
// until it is discarded.
type tempFile struct {
	path string // "" once it became the target
	f    *os.File
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
	t.f.Close()
	t.f = nil
}

// writeTemp writes data to a new temp file beside target, with the mode
// given, locked by this writer, and fsyncs it.
func (d *Disk) writeTemp(target string, data []byte, mode fs.FileMode) (*tempFile, error) {
	dir, name := filepath.Split(target)
	t := &tempFile{}
	for {
		t.path = filepath.Join(dir, TempName(name, d.pid, int(d.n.Add(1))))
		f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil || !sameFile(f, t.path) {
			f.Close() // a sweep took it between create and lock: take another name
			continue
		}
		t.f = f
		break
	}
	_, err := t.f.Write(data)
	if err == nil {
		err = t.f.Chmod(mode.Perm())
	}
	if err == nil {
		// Start the writeback now, without waiting: the flushes of every
		// temp file of a commit overlap, and sync then mostly waits for
		// writes already under way (git's batch fsync does the same).
		_ = unix.SyncFileRange(int(t.f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
	}
	if err != nil {
		t.discard()
		return nil, err
	}
	return t, nil
}

// sync makes a temp file's bytes durable before it is published.
func (t *tempFile) sync() error {
	if err := unix.Fdatasync(int(t.f.Fd())); err != nil {
		return fmt.Errorf("fsync %s: %w", t.path, err)
	}
	return nil
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// sweep removes, for each target of a change set, its temp files that no
// writer locks (S8.5); it lists each directory once.
func (d *Disk) sweep(ps []plan) {
	var dirs []string
	targets := map[string][]string{}
	for _, p := range ps {
		dir, name := filepath.Split(p.target)
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
			for _, dead := range Sweep(names, target, func(n string) bool { return heldByWriter(filepath.Join(dir, n)) }) {
				os.Remove(filepath.Join(dir, dead))
			}
		}
	}
}

// heldByWriter tells whether a live writer locks a temp file. A file it
// cannot open counts as held: a sweep never removes what it cannot check.
func heldByWriter(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// restore undoes a landed change from its previous bytes (beyond the seed:
// the commit is a true transaction).
func (d *Disk) restore(p plan) error {
	put := func(path string, link bool) error { // the old bytes back at path
		if err := d.tempFaults(path); err != nil {
			return err
		}
		t, err := d.writeTemp(path, p.Old, p.mode)
		if err == nil {
			if err = t.sync(); err != nil {
				t.discard()
			}
		}
		if err != nil {
			return err
		}
		defer t.discard()
		if link {
			err = os.Link(t.path, path)
		} else if err = os.Rename(t.path, path); err == nil {
			t.path = ""
		}
		if err == nil {
			d.syncDir(filepath.Dir(path)) // best effort: the bytes are back either way
		}
		return err
	}
	switch {
	case p.Create:
		return os.Remove(p.path)
	case p.dest != "":
		if _, err := os.Lstat(p.path); isNotExist(err) {
			if err := put(p.path, true); err != nil {
				return err
			}
		}
		return os.Remove(p.dest)
	}
	return put(p.path, false)
}
