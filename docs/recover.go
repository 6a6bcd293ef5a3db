package docs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Recovery of a journal left behind (the rule: journal.go; what an
// attacker controls between the commit's decision and recovery's act,
// and what recovery does about each: doc.go).
//
// Which way, all or nothing: a journal is acted on only when its
// signature verifies (journal_sign.go). Each path it names (each file, a
// move's destination, each temp file) is judged again, now: below the
// root, and (JournalAt.Judge) a write there runs unasked. A forward
// journal every path of which passes is finished forward. One that names
// a path that does not pass is turned back instead, for the whole
// journal: every file it may still touch and whose old bytes are still
// there ends old (a file not yet published is left, a created file is
// removed, a move's destination is removed and its source linked back
// from the old bytes, a file whose edit had landed gets the old bytes
// its commit kept before the first publish); a path that did not pass
// is never touched, in either direction; a file whose edit had landed
// and whose old bytes were not kept (a journal of an older eukhe) keeps
// it. The notice
// names the paths that turned it back, and each file left as it is, so
// "all or nothing" holds for every file recovery may touch, and each
// exception is named. A back journal is taken back, the same way.
// Recovery never asks: no one is there to answer at a start.

// Recovery is what the finder of a journal left behind did with it.
type Recovery struct {
	Time    time.Time // when the interrupted commit wrote it
	PID     int       // the process that wrote it
	Phase   string    // what the commit was doing: "prepare", "forward" or "back"
	Done    []string  // the files it finished or rolled back, as the change named them
	Already []string  // the files that already held the result
	Left    []string  // the files it could not finish, each with why
	// TurnedBack names, each with why, the paths of a forward journal
	// that recovery may not act on unasked now: it was turned back.
	TurnedBack []string
	// SetAside is where a journal not acted on was moved ("" when none).
	SetAside string
	// Swept names, for a journal not acted on, each file of the workspace
	// whose temp file its writer left, and what became of it.
	Swept []string
	Err   error // the journal could not be handled at all
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
	// "name (why)": the name as the session knows it
	named := func(ps []string) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			name, why, ok := strings.Cut(p, " (")
			out[i] = display(name)
			if ok {
				out[i] += " (" + why
			}
		}
		return strings.Join(out, "; ")
	}
	at := r.Time.Local().Format("2006-01-02 15:04:05")
	if r.Err != nil {
		if r.Time.IsZero() {
			text := fmt.Sprintf("eukhe found an intent journal it did not act on: %v", r.Err)
			if len(r.Swept) > 0 {
				text += fmt.Sprintf(". The edit it was written for may have landed on some of its files and not others; read them before editing them. Its writer's temp files: %s.", strings.Join(r.Swept, "; "))
			}
			return text
		}
		return fmt.Sprintf("eukhe found the intent journal of an edit interrupted at %s (process %d) and could not recover it: %v", at, r.PID, r.Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "eukhe found an edit interrupted at %s (process %d)", at, r.PID)
	switch {
	case r.Phase == phasePrepare:
		b.WriteString(" before any file was written: none of that edit is on disk")
	case len(r.TurnedBack) > 0 && len(r.Left) == 0:
		fmt.Fprintf(&b, " and turned it back instead of finishing it, because recovery may not act unasked on %s: none of that edit is on disk", named(r.TurnedBack))
	case len(r.TurnedBack) > 0:
		fmt.Fprintf(&b, " and turned it back instead of finishing it, because recovery may not act unasked on %s; it could not turn all of it back", named(r.TurnedBack))
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
		fmt.Fprintf(&b, "; left as they are: %s. Read those files before editing them", named(r.Left))
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
			if r, ok := recoverJournal(path, at); ok {
				out = append(out, r)
			}
		case strings.HasSuffix(de.Name(), ".tmp"), strings.HasSuffix(de.Name(), backExt):
			// a journal that was never complete (nothing was published),
			// or the way back of one that is gone or ended
			removeIfFree(path)
		}
	}
	return out
}

// recoverJournal finishes one journal; false when there was none to
// finish (its writer ended it while we waited).
func recoverJournal(path string, at JournalAt) (Recovery, bool) {
	var f *os.File
	for {
		var err error
		if f, err = openFile(path, os.O_RDWR|oNoFollow, 0); err != nil {
			return Recovery{}, false // ended while we waited
		}
		if err := lockFile(f, lockEx); err != nil {
			f.Close()
			return Recovery{}, false
		}
		if sameFile(f, path) {
			break
		}
		f.Close() // rewritten while we waited: wait on the new one
	}
	defer f.Close()
	var rec journalRec
	err := owned(f)
	var data []byte
	if err == nil {
		var key []byte
		if key, err = journalKey(at.Dir); err == nil {
			data, err = opened(key, at.Root, f)
		}
	}
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err == nil {
		err = shaped(rec)
	}
	if err != nil {
		where, moveErr := setAside(at.Dir, path)
		if moveErr != nil {
			err = fmt.Errorf("the journal %s was not acted on (%v), and could not be set aside: %v; nothing it names was changed", path, err, moveErr)
			return Recovery{Err: err, SetAside: where}, true
		}
		err = fmt.Errorf("the journal %s was not acted on, since %v; it was set aside as %s and nothing it names was changed", filepath.Base(path), err, where)
		return Recovery{Err: err, SetAside: where, Swept: sweepAfter(at, filepath.Base(path), where+".files")}, true
	}
	root := at.Root
	if root == "" {
		root = "/"
	}
	b, err := openBeneath(root)
	if err != nil {
		return Recovery{Time: rec.Time, PID: rec.PID, Err: fmt.Errorf("opening the workspace %s: %v; the journal %s stays for the next start", root, err, path)}, true
	}
	defer b.close()
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
	plan := planRecovery(rec, func(p string) string {
		if _, err := b.rel(p); err != nil {
			return "outside the workspace"
		}
		if at.Judge != nil {
			return at.Judge(p)
		}
		return ""
	})
	r := Recovery{Time: rec.Time, PID: rec.PID, Phase: rec.Phase, TurnedBack: plan.causes}
	touched := map[string]bool{}
	for _, jf := range rec.Files {
		if rec.Phase == phasePrepare {
			break
		}
		if plan.refusedFile(jf) == "" {
			// a crash between a temp file's rename and its mode left the
			// file with none (tempFile.reveal): give it the journal's
			b.revealLeft(jf.Path, jf.Mode)
			b.revealLeft(jf.Dest, jf.Mode)
		}
		if why := plan.refusedFile(jf); why != "" {
			r.Left = append(r.Left, jf.Name+" (left as it is: "+why+")")
			continue
		}
		done, why := finish(b, jf, plan.back, touched)
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
		if plan.refusedFile(jf) != "" {
			// Its directory is not recovery's to tidy, but a temp name of
			// its own that passes is removed: a name taken away plants
			// nothing, and the kept old file (BackT, a second name of the
			// file) would leave the file with two names.
			for _, t := range []string{jf.Temp, jf.BackT} {
				if _, refused := plan.refused[t]; t != "" && !refused {
					b.remove(t)
				}
			}
			continue
		}
		for _, t := range []string{jf.Temp, jf.BackT} {
			if t != "" {
				b.remove(t)
			}
		}
		targets = append(targets, jf.Path)
		if jf.Dest != "" {
			targets = append(targets, jf.Dest)
		}
	}
	b.sweep(targets)
	for dir := range touched {
		syncDir(dir)
	}
	if err := os.Remove(path); err != nil {
		r.Err = fmt.Errorf("removing the journal %s: %v", path, err)
	}
	syncDir(filepath.Dir(path))
	return r, true
}

// sweepAfter sweeps the temp files the writer of a journal not acted on
// left below the root (orphans.go); nil when its name gives no writer.
func sweepAfter(at JournalAt, name, aside string) []string {
	pid, ok := journalPID(name)
	if !ok {
		return nil
	}
	root := at.Root
	if root == "" {
		return nil // no root to walk: only a write of each file sweeps its temp files
	}
	b, err := openBeneath(root)
	if err != nil {
		return nil
	}
	defer b.close()
	return sweepOrphans(b, pid, aside)
}

// plan is the rule's answer for one journal: which way it is taken, the
// paths it does not touch (each with why), and the names of the paths
// that turned a forward journal back.
type plan struct {
	back    bool
	refused map[string]string // real path → why recovery does not act on it
	causes  []string
}

// planRecovery is the rule (pure): judge answers for a real path whether
// recovery may act on it ("") or why not. Every path a journal names is
// judged; a forward journal with a refused path is turned back.
func planRecovery(rec journalRec, judge func(real string) string) plan {
	p := plan{back: rec.Phase == phaseBack, refused: map[string]string{}}
	for _, jf := range rec.Files {
		for _, path := range []string{jf.Path, jf.Dest, jf.Temp, jf.BackT} {
			if path == "" {
				continue
			}
			if _, ok := p.refused[path]; ok {
				continue
			}
			if why := judge(path); why != "" {
				p.refused[path] = why
				name := jf.Name
				if path == jf.Dest {
					name = jf.DestAs
				}
				if path == jf.Temp || path == jf.BackT {
					name = jf.Name + "'s temp file"
				}
				if cause := name + " (" + why + ")"; !slices.Contains(p.causes, cause) {
					p.causes = append(p.causes, cause)
				}
			}
		}
	}
	if rec.Phase == phaseForward && len(p.refused) > 0 {
		p.back = true
	} else {
		p.causes = nil // nothing was turned back
	}
	return p
}

// refusedFile is why recovery does not touch a change at all: one of its
// paths was refused ("" when none was).
func (p plan) refusedFile(jf journalFile) string {
	for _, path := range []string{jf.Path, jf.Dest, jf.Temp, jf.BackT} {
		if why, ok := p.refused[path]; ok && path != "" {
			return why
		}
	}
	return ""
}

// acts lists the paths the plan lets recovery change for jf (pure; the
// law's view of finish).
func (p plan) acts(jf journalFile) []string {
	if p.refusedFile(jf) != "" {
		var out []string // only its own temp names that pass, removed
		for _, t := range []string{jf.Temp, jf.BackT} {
			if _, refused := p.refused[t]; t != "" && !refused {
				out = append(out, t)
			}
		}
		return slices.Compact(out)
	}
	var out []string
	for _, path := range []string{jf.Path, jf.Dest, jf.Temp, jf.BackT} {
		if path != "" {
			out = append(out, path)
		}
	}
	return slices.Compact(out)
}

// finish applies the rule to one file of a journal, through b (no link
// followed, nothing outside the root): done when it changed the file, why
// when it could not. It looks (see), asks the rule (recoveryAction) and
// carries out its action (act).
func finish(b *beneath, jf journalFile, back bool, touched map[string]bool) (done bool, why string) {
	s, err := see(b, jf)
	if err != nil {
		return false, whyOf(err)
	}
	return act(b, recoveryAction(jf, back, s), touched)
}

// see reads what the rule looks at: the digest at the file's path and,
// for a move, at its destination.
func see(b *beneath, jf journalFile) (seen, error) {
	var s seen
	var err error
	s.src, s.srcOK, err = b.digest(jf.Path)
	if err != nil || jf.Create || jf.Dest == "" {
		return s, err
	}
	s.dst, s.dstOK, err = b.digest(jf.Dest)
	return s, err
}

// act carries out a: its source checked to hold the digest the rule
// named, the landing, then the removal. A landing that is the last step
// reports done even when it failed (the path may have changed); one a
// removal follows stops there, and nothing is removed.
func act(b *beneath, a action, touched map[string]bool) (done bool, why string) {
	if a.why != "" {
		return false, a.why
	}
	touch := func(p string) { touched[filepath.Dir(p)] = true }
	if a.from != noSource {
		var fd sysFD
		var err error
		if a.from == fromTemp {
			fd, err = b.temp(a.fromPath, a.fromDigest)
		} else {
			fd, err = b.holding(a.fromPath, a.fromDigest)
		}
		if err != nil {
			return false, whyOf(err)
		}
		defer closeFD(fd)
		for _, p := range a.touch {
			touch(p)
		}
		if a.land == linkAt {
			err = b.linkFD(fd, a.fromPath, a.at)
		} else {
			err = b.renameOver(fd, a.fromPath, a.at)
		}
		err = landed(err, fd, a.mode)
		if a.remove == "" {
			return true, errWhy(err)
		}
		if err != nil {
			return false, whyOf(err)
		}
	}
	if a.remove == "" {
		return false, ""
	}
	touch(a.remove)
	return true, errWhy(b.remove(a.remove))
}

// landed gives a temp file recovery published (err nil) the mode its
// journal names: temp files have none until they land. A mode of 0 (a
// journal of an older eukhe, whose temp files had theirs) is left as it
// is.
func landed(err error, fd sysFD, mode uint32) error {
	if err != nil || mode == 0 {
		return err
	}
	if err := fchmodFD(fd, mode&0o7777); err != nil {
		return fmt.Errorf("it landed, but giving it its mode %04o failed: %v", mode, err)
	}
	return nil
}

// modeIf is mode when cond holds, else 0 (nothing to give).
func modeIf(cond bool, mode uint32) uint32 {
	if cond {
		return mode
	}
	return 0
}

// holding opens the file at path and checks it holds bytes of digest
// want: the file a bare move links, exactly as checked.
func (b *beneath) holding(path, want string) (sysFD, error) {
	fd, err := b.open(path)
	if err != nil {
		return badFD, err
	}
	d, ok, err := digestFD(fd, path)
	if err == nil && (!ok || d != want) {
		err = errors.New("it holds other bytes now")
	}
	if err != nil {
		closeFD(fd)
		return badFD, err
	}
	return fd, nil
}

// whyOf says why an act of recovery did not run.
func whyOf(err error) string {
	switch {
	case errors.Is(err, ErrLinkBelow):
		return "a symbolic link is on its way now (a directory swapped for a link since the commit?): recovery follows none"
	case errors.Is(err, errOutside):
		return errOutside.Error()
	case errors.Is(err, errBytesLost):
		return "its bytes are lost"
	case errors.Is(err, os.ErrNotExist):
		return "its bytes are lost"
	}
	return err.Error()
}

func errWhy(err error) string {
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return whyOf(err)
}

// shaped refuses a journal eukhe would not have written even with a
// valid signature (a check in depth): a path that is not absolute and
// clean, or a temp file that is not a temp file of its target beside it.
func shaped(rec journalRec) error {
	clean := func(p string) bool { return p == "" || filepath.IsAbs(p) && filepath.Clean(p) == p }
	tempOf := func(t, target string) bool {
		return t == "" || (clean(t) && filepath.Dir(t) == filepath.Dir(target) && IsTempOf(filepath.Base(t), filepath.Base(target)))
	}
	switch rec.Phase {
	case phasePrepare, phaseForward, phaseBack:
	default:
		return fmt.Errorf("its phase %q is none eukhe writes", rec.Phase)
	}
	for _, jf := range rec.Files {
		target := jf.Path
		if jf.Dest != "" {
			target = jf.Dest
		}
		switch {
		case jf.Path == "" || !clean(jf.Path) || !clean(jf.Dest):
			return fmt.Errorf("it names %s, not an absolute clean path", jf.Name)
		case !tempOf(jf.Temp, target) || !tempOf(jf.BackT, jf.Path) && !tempOf(jf.BackT, target):
			return fmt.Errorf("it names temp files of %s that are not eukhe's temp files beside it", jf.Name)
		}
	}
	return nil
}
