package docs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sys/unix"
)

// The intent journal (DESIGN.md §10) makes a multi-file commit atomic
// across a crash. Before any temp file is written (by the engine, or by a
// batch the edit tool began: batch.go), one file in the root's journal
// directory names every path of the commit (phase "prepare"), so that a
// crash while the temp files are written leaves a list of where they are.
// Once every temp file is written and fsync'd, the journal is rewritten
// with each change in order, the digests of its old and new bytes and its
// temp file (phase "forward"), and fsync'd; only then does the first
// publish run. Each version is written under a temp name,
// renamed to <pid>-<n>.journal, and (from "forward" on) its directory
// fsync'd; its writer holds a lock on it (flock) until the commit ends and
// removes it after the last publish. When a publish fails, the journal is
// rewritten the same way as the way back (phase "back": each landed change
// with the temp file that holds its old bytes); then the restore runs.
//
// One rule for a journal left behind, whoever finds it (any eukhe of that
// root, at its start and before each commit): it is finished in the
// direction it names. Prepare: nothing was published; nothing is changed.
// Forward: every listed file that still holds its old
// bytes gets its new bytes from its temp file (a move is linked to its
// destination and its source removed); one that holds its new bytes is
// left. Back: every listed file that holds its new bytes gets its old
// bytes back; one that holds its old bytes is left. A file that holds
// neither (another program changed it after the crash), or whose temp file
// is gone, is left as it is and named in the report. Then the temp files of
// every listed target that no live writer holds are removed (S8.5), the
// directories synced, the journal removed.
// Since every file holds its old or its new bytes at any instant of a
// commit, and the temp files were durable before the journal was, a
// finished journal leaves every file new (forward) or every file old
// (back). The finder locks the journal, then the directories of its files
// (as a writer does), so two finders never both act on one journal, and a
// live writer's journal is waited for, never acted on.

// JournalAt is where a commit keeps its intent journal (Dir; "" keeps
// none) and the workspace root it is kept for (Root; "" checks nothing).
type JournalAt struct{ Dir, Root string }

// JournalDir is the directory of the intent journals of the commits under
// root: $XDG_STATE_HOME/eukhe/journal/<hash of root> (default
// ~/.local/state), from env ("NAME" → value). A relative XDG_STATE_HOME is
// ignored, as the XDG spec says; with no absolute HOME either there is no
// state directory, and the answer is "" (no journal).
func JournalDir(env map[string]string, root string) string {
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) {
		if !filepath.IsAbs(env["HOME"]) {
			return ""
		}
		state = filepath.Join(env["HOME"], ".local", "state")
	}
	return filepath.Join(state, "eukhe", "journal", fmt.Sprintf("%016x", xxhash.Sum64String(filepath.Clean(root))))
}

const journalExt = ".journal"

// journalRec is a journal's content.
type journalRec struct {
	V     int           `json:"v"`
	PID   int           `json:"pid"`
	Time  time.Time     `json:"time"`
	Phase string        `json:"phase"` // "prepare", "forward" or "back"
	Files []journalFile `json:"files"`
}

// journalFile is one change of a journal, in publish order.
type journalFile struct {
	Name   string `json:"name"`               // the path as the change named it
	DestAs string `json:"destName,omitempty"` // the destination as the change named it
	Path   string `json:"path"`               // resolved
	Dest   string `json:"dest,omitempty"`
	Create bool   `json:"create,omitempty"`
	Old    string `json:"old,omitempty"` // digest of the old bytes (hex)
	New    string `json:"new"`           // digest of the new bytes (hex)
	Temp   string `json:"temp,omitempty"`
	BackT  string `json:"backTemp,omitempty"` // the old bytes, for the way back
}

// journal is a live commit's journal: the file, held open and locked.
type journal struct {
	dir, path string
	f         *os.File
	rec       journalRec
}

var journalN atomic.Int64

func digestHex(b []byte) string { return hexOf(DigestOf(b)) }

func hexOf(d Digest) string { return strconv.FormatUint(uint64(d), 16) }

const (
	phasePrepare = "prepare"
	phaseForward = "forward"
	phaseBack    = "back"
)

// writeJournal writes the journal of a checked change set before anything
// is prepared (not fsync'd: it only lists where temp files may be, so it
// names no digest yet: forward does); the returned journal holds its lock
// until end.
func writeJournal(dir string, ps []*Pending, fault func(step, path string) error) (*journal, error) {
	j := &journal{dir: dir, rec: journalRec{V: 1, PID: os.Getpid(), Time: time.Now().UTC(), Phase: phasePrepare, Files: journalFiles(ps)}}
	j.path = filepath.Join(dir, fmt.Sprintf("%d-%d%s", j.rec.PID, journalN.Add(1), journalExt))
	if err := j.put(fault, false); err != nil {
		return nil, err
	}
	return j, nil
}

// journalFiles lists changes as a journal names them, without digests.
func journalFiles(ps []*Pending) []journalFile {
	out := make([]journalFile, len(ps))
	for i, p := range ps {
		out[i] = journalFile{Name: p.Path, Path: p.Real, Dest: p.RealDest, DestAs: p.MoveTo, Create: p.Create}
	}
	return out
}

// forward rewrites the journal once every change is prepared: the digests
// of each file's old and new bytes (sums, as the checked changes hold
// them) and the temp files of the new bytes, fsync'd. A nil journal does
// nothing.
func (j *journal) forward(ps []*Pending, sums []sums, fault func(step, path string) error) error {
	if j == nil {
		return nil
	}
	j.rec.Phase = phaseForward
	for k, p := range ps {
		j.rec.Files[k].Old, j.rec.Files[k].New = sums[k].old, sums[k].new
		j.rec.Files[k].Temp = p.Staged
	}
	return j.put(fault, true)
}

// sums are a change's digests as the journal names them (hex).
type sums struct{ old, new string }

// sumsOf digests the old and new bytes of checked changes, side by side;
// a nil journal needs none.
func (j *journal) sumsOf(ps []*Pending) []sums {
	if j == nil {
		return nil
	}
	out := make([]sums, len(ps))
	eachParallel(len(ps), func(k int) {
		p := ps[k]
		if p.Digested && !p.Rebased {
			if !p.Create {
				out[k].old = hexOf(p.OldDigest)
			}
			out[k].new = hexOf(p.NewDigest)
			return
		}
		if !p.Create {
			out[k].old = digestHex(p.Old)
		}
		nb := p.New
		if nb == nil {
			nb = p.Old
		}
		out[k].new = digestHex(nb)
	})
	return out
}

// put writes the journal's record under a temp name, locked, renames it
// over the journal's path, and when durable fsyncs the file first and the
// directory after.
func (j *journal) put(fault func(step, path string) error, durable bool) error {
	if fault != nil {
		if err := fault("journal", j.path); err != nil {
			return fmt.Errorf("writing the intent journal %s: %w", j.path, err)
		}
	}
	fail := func(err error) error { return fmt.Errorf("writing the intent journal %s: %v", j.path, err) }
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return fail(err)
	}
	data, err := json.Marshal(j.rec)
	if err != nil {
		return fail(err)
	}
	tmp := strings.TrimSuffix(j.path, journalExt) + ".tmp"
	var f *os.File
	for {
		f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fail(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return fail(err)
		}
		if sameFile(f, tmp) {
			break
		}
		f.Close() // a finder swept it before the lock: make it again
	}
	_, err = f.Write(data)
	if err == nil && durable {
		err = unix.Fdatasync(int(f.Fd()))
	}
	if err == nil {
		err = os.Rename(tmp, j.path)
	}
	if err == nil && durable {
		err = syncDir(j.dir)
	}
	if err != nil {
		os.Remove(tmp)
		f.Close()
		return fail(err)
	}
	if j.f != nil {
		j.f.Close() // the record it held is replaced
	}
	j.f = f
	return nil
}

// back rewrites the journal as the way back: the landed changes with the
// temp files of their old bytes. A nil journal does nothing.
func (j *journal) back(landed []*Pending, fault func(step, path string) error) error {
	if j == nil {
		return nil
	}
	j.rec.Phase = phaseBack
	for k, p := range landed {
		j.rec.Files[k].BackT = p.Staged
	}
	j.rec.Files = j.rec.Files[:len(landed)]
	return j.put(fault, true)
}

// end removes the journal after the last publish and ends its lock. A nil
// journal does nothing.
func (j *journal) end(fault func(step, path string) error) error {
	if j == nil || j.f == nil {
		return nil
	}
	defer func() { j.f.Close(); j.f = nil }()
	if fault != nil {
		if err := fault("unjournal", j.path); err != nil {
			return fmt.Errorf("unjournal %s: %w", j.path, err)
		}
	}
	return os.Remove(j.path)
}

// Recovery is what the finder of a journal left behind did with it.
type Recovery struct {
	Time    time.Time // when the interrupted commit wrote it
	PID     int       // the process that wrote it
	Phase   string    // what the commit was doing: "prepare", "forward" or "back"
	Done    []string  // the files it finished or rolled back, as the change named them
	Already []string  // the files that already held the result
	Left    []string  // the files it could not finish, each with why
	Err     error     // the journal could not be handled at all
}

// Text tells a session what was recovered; display turns a path into the
// name the session knows.
func (r Recovery) Text(display func(string) string) string {
	names := func(ps []string) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = display(p)
		}
		return strings.Join(out, ", ")
	}
	at := r.Time.Local().Format("2006-01-02 15:04:05")
	if r.Err != nil {
		return fmt.Sprintf("eukhe found the intent journal of an edit interrupted at %s (process %d) and could not recover it: %v", at, r.PID, r.Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "eukhe found an edit interrupted at %s (process %d)", at, r.PID)
	switch {
	case r.Phase == phasePrepare:
		b.WriteString(" before any file was written: none of that edit is on disk")
	case r.Phase == phaseBack && len(r.Left) == 0:
		b.WriteString(" while it put files back, and finished putting them back: none of that edit is on disk")
	case len(r.Left) == 0:
		b.WriteString(" and finished it: every file of it holds the edit")
	default:
		b.WriteString(" and could not finish it")
	}
	if len(r.Done) > 0 {
		fmt.Fprintf(&b, "; completed %s", names(r.Done))
	}
	if len(r.Already) > 0 {
		fmt.Fprintf(&b, "; %s already held the result", names(r.Already))
	}
	if len(r.Left) > 0 {
		fmt.Fprintf(&b, "; left as they are: %s. Read those files before editing them", strings.Join(r.Left, "; "))
	}
	b.WriteString(".")
	return b.String()
}

// recoverDead finishes every journal in dir that no live writer holds (the
// rule above) and removes the temp names of journals that never became
// one. It waits for a live writer's journal to end.
func recoverDead(at JournalAt) []Recovery {
	dir := at.Dir
	des, err := os.ReadDir(dir)
	if err != nil || len(des) == 0 {
		return nil
	}
	var out []Recovery
	for _, de := range des {
		path := filepath.Join(dir, de.Name())
		switch {
		case strings.HasSuffix(de.Name(), journalExt):
			if r, ok := recoverJournal(path, at.Root); ok {
				out = append(out, r)
			}
		case strings.HasSuffix(de.Name(), ".tmp"):
			removeIfFree(path) // a journal that was never complete: nothing was published
		}
	}
	return out
}

// recoverJournal finishes one journal; false when there was none to
// finish (its writer ended it while we waited).
func recoverJournal(path, root string) (Recovery, bool) {
	var f *os.File
	for {
		var err error
		if f, err = os.OpenFile(path, os.O_RDWR, 0); err != nil {
			return Recovery{}, false // ended while we waited
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return Recovery{}, false
		}
		if sameFile(f, path) {
			break
		}
		f.Close() // rewritten while we waited: wait on the new one
	}
	defer f.Close()
	data, err := os.ReadFile(path)
	var rec journalRec
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err == nil {
		err = trusted(f, rec, root)
	}
	if err != nil {
		os.Remove(path)
		return Recovery{Time: rec.Time, PID: rec.PID, Err: fmt.Errorf("the journal %s was not acted on and was removed: %v", path, err)}, true
	}
	var dirs []string
	for _, jf := range rec.Files {
		dirs = append(dirs, jf.Path)
		if jf.Dest != "" {
			dirs = append(dirs, jf.Dest)
		}
	}
	unlock, _, err := lockDirs(dirs, nil)
	if err != nil {
		return Recovery{Time: rec.Time, PID: rec.PID, Err: err}, true
	}
	defer unlock()
	r := Recovery{Time: rec.Time, PID: rec.PID, Phase: rec.Phase}
	touched := map[string]bool{}
	for _, jf := range rec.Files {
		if rec.Phase == phasePrepare {
			break
		}
		done, why := finish(jf, rec.Phase == phaseBack, touched)
		switch {
		case why != "":
			r.Left = append(r.Left, jf.Name+" ("+why+")")
		case done:
			r.Done = append(r.Done, jf.Name)
		default:
			r.Already = append(r.Already, jf.Name)
		}
	}
	var targets []string
	for _, jf := range rec.Files {
		for _, t := range []string{jf.Temp, jf.BackT} {
			if t != "" {
				os.Remove(t)
			}
		}
		targets = append(targets, jf.Path)
		if jf.Dest != "" {
			targets = append(targets, jf.Dest)
		}
	}
	sweepTargets(targets)
	for dir := range touched {
		syncDir(dir)
	}
	if err := os.Remove(path); err != nil {
		r.Err = fmt.Errorf("removing the journal %s: %v", path, err)
	}
	syncDir(filepath.Dir(path))
	return r, true
}

// digestAt is the digest of the file at path, "" when there is none.
func digestAt(path string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return digestHex(b), true
}

// finish applies the rule to one file of a journal: done when it changed
// the file, why when it could not.
func finish(jf journalFile, back bool, touched map[string]bool) (done bool, why string) {
	touch := func(p string) { touched[filepath.Dir(p)] = true }
	staged := func(t, want string) bool { d, ok := digestAt(t); return t != "" && ok && d == want }
	src, srcOK := digestAt(jf.Path)
	switch {
	case jf.Create:
		switch {
		case srcOK && src == jf.New && !back:
			return false, ""
		case !srcOK && back:
			return false, ""
		case srcOK && src == jf.New: // back: remove the created file
			touch(jf.Path)
			return true, errWhy(os.Remove(jf.Path))
		case srcOK:
			return false, "it holds other bytes now"
		case !staged(jf.Temp, jf.New):
			return false, "its new bytes are lost"
		}
		touch(jf.Path)
		return true, errWhy(os.Link(jf.Temp, jf.Path))
	case jf.Dest != "":
		dst, dstOK := digestAt(jf.Dest)
		if !back {
			switch {
			case dstOK && dst == jf.New:
				if srcOK && src == jf.Old {
					touch(jf.Path)
					return true, errWhy(os.Remove(jf.Path))
				}
				return false, ""
			case dstOK:
				return false, "its destination holds other bytes now"
			case !srcOK || src != jf.Old:
				return false, "it holds other bytes now"
			}
			from := jf.Path
			if jf.Temp != "" {
				if !staged(jf.Temp, jf.New) {
					return false, "its new bytes are lost"
				}
				from = jf.Temp
			}
			touch(jf.Dest)
			touch(jf.Path)
			if err := os.Link(from, jf.Dest); err != nil {
				return false, err.Error()
			}
			return true, errWhy(os.Remove(jf.Path))
		}
		switch {
		case !dstOK && srcOK && src == jf.Old:
			return false, ""
		case dstOK && dst != jf.New:
			return false, "its destination holds other bytes now"
		case srcOK && src != jf.Old:
			return false, "it holds other bytes now"
		case !srcOK && !dstOK:
			return false, "it and its destination are both gone"
		}
		if !srcOK {
			if !staged(jf.BackT, jf.Old) {
				return false, "its old bytes are lost"
			}
			touch(jf.Path)
			if err := os.Link(jf.BackT, jf.Path); err != nil {
				return false, err.Error()
			}
		}
		touch(jf.Dest)
		if dstOK {
			return true, errWhy(os.Remove(jf.Dest))
		}
		return true, ""
	}
	want, have, t := jf.New, jf.Old, jf.Temp
	if back {
		want, have, t = jf.Old, jf.New, jf.BackT
	}
	switch {
	case srcOK && src == want:
		return false, ""
	case !srcOK || src != have:
		return false, "it holds other bytes now"
	case !staged(t, want):
		return false, "its bytes are lost"
	}
	touch(jf.Path)
	return true, errWhy(os.Rename(t, jf.Path))
}

func errWhy(err error) string {
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return err.Error()
}

// trusted refuses a journal that eukhe would not have written: one another
// user owns or others may write, or one that names a file outside the
// root, or a temp file that is not a temp file of its target beside it. A
// journal is a list of renames; without this check, whoever could put one
// in the state directory could move any file through the next start.
func trusted(f *os.File, rec journalRec, root string) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if int(st.Uid) != os.Getuid() || st.Mode&0o022 != 0 {
		return fmt.Errorf("it is owned by user %d with mode %04o, not this user's alone", st.Uid, st.Mode&0o777)
	}
	roots := []string{root}
	if r, err := filepath.EvalSymlinks(root); err == nil && r != root {
		roots = append(roots, r)
	}
	inRoot := func(p string) bool {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return false
		}
		for _, r := range roots {
			if rel, err := filepath.Rel(r, p); r == "" || err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return true
			}
		}
		return false
	}
	// A file is under the root, or is what a name under the root resolves
	// to now (a symlink in the workspace to a file elsewhere).
	under := func(p, named string) bool {
		return inRoot(p) || (named != "" && inRoot(named) && realPath(named) == p)
	}
	tempOf := func(t, target string) bool {
		return t == "" || (filepath.IsAbs(t) && filepath.Clean(t) == t && filepath.Dir(t) == filepath.Dir(target) && IsTempOf(filepath.Base(t), filepath.Base(target)))
	}
	for _, jf := range rec.Files {
		target := jf.Path
		if jf.Dest != "" {
			target = jf.Dest
		}
		switch {
		case jf.Dest != "" && (!inRoot(jf.Path) || !inRoot(jf.Dest)):
			// A move links one name to another and removes the first:
			// both stay in the workspace, never through a symlink out.
			return fmt.Errorf("it moves %s, and the move's ends are not both in the workspace %s", jf.Name, root)
		case !under(jf.Path, jf.Name):
			return fmt.Errorf("it names %s, outside the workspace %s", jf.Name, root)
		case !tempOf(jf.Temp, target) || !tempOf(jf.BackT, jf.Path):
			return fmt.Errorf("it names temp files of %s that are not eukhe's temp files beside it", jf.Name)
		}
	}
	return nil
}
