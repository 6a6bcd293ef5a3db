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
	"time"

	"github.com/cespare/xxhash/v2"
)

// The intent journal (DESIGN.md §10) makes a multi-file commit atomic
// across a crash. Before any temp file is written (by the engine, or by a
// batch the edit tool began: batch.go), one file in the root's journal
// directory names every path of the commit (phase "prepare"), so that a
// crash while the temp files are written leaves a list of where they are.
// Once every temp file is written and fsync'd (and each file a change
// replaces or moves has a second name, a temp name, that keeps its old
// bytes: Disk.keepOld), the journal is rewritten with each change in
// order, the digests of its old and new bytes, its temp file and its kept
// old file (phase "forward"), and fsync'd; the same record as the way
// back (phase "back") is written first beside it, <pid>-<n>.back, never
// acted on there. Only then does the first publish run. Each version is
// written under a temp name, renamed to <pid>-<n>.journal, and (from
// "forward" on) its directory fsync'd; its writer holds a lock on it
// (flock) until the commit ends and removes it after the last publish.
// When a publish fails, the way back is renamed over the journal and the
// restore runs: neither takes new space, so a disk that filled up since
// the first publish (a double fault) does not leave the edit half
// applied.
//
// One rule for a journal left behind, whoever finds it (any eukhe of that
// root, at its start and before each commit): only a journal whose
// signature verifies is acted on (journal_sign.go), only beneath the root
// and never through a link, and it is finished in the direction it names
// unless a path it names may not be written unasked now: then it is
// turned back (recover.go says the rule whole). Prepare: nothing was published; nothing is changed.
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
// none), the workspace root it is kept for (Root; "" is "/": recovery then
// still follows no link), and how recovery judges a path again before it
// acts on it (Judge).
type JournalAt struct {
	Dir, Root string
	// Judge tells whether writing or removing the real path would run
	// unasked now (""), or why not ("protected", "outside the
	// workspace"...): the documents gate's judgment, injected by agent
	// (docs does not import gate). nil judges nothing (tests; a store
	// with no gate).
	Judge func(real string) string
}

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

const (
	journalExt = ".journal"
	backExt    = ".back" // the way back of a live commit, written before its first publish
)

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
	// Mode is the file's permission bits: a temp file has none until it
	// lands (tempFile.reveal), so recovery gives it this one.
	Mode uint32 `json:"mode,omitempty"`
}

// journal is a live commit's journal: the file, held open and locked.
type journal struct {
	at        JournalAt
	dir, path string
	f         *os.File
	rec       journalRec
	// backPath holds the way back, written by forward and renamed over
	// path when a publish fails; backF is it, open and locked.
	backPath string
	backF    *os.File
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
func writeJournal(at JournalAt, ps []*Pending, fault func(step, path string) error) (*journal, error) {
	dir := at.Dir
	j := &journal{at: at, dir: dir, rec: journalRec{V: 2, PID: os.Getpid(), Time: time.Now().UTC(), Phase: phasePrepare, Files: journalFiles(ps)}}
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
		out[i] = journalFile{Name: p.Path, Path: p.Real, Dest: p.RealDest, DestAs: p.MoveTo, Create: p.Create, Mode: uint32(p.Mode.Perm())}
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
	// A change that lands in an editor's buffer (Pending.Buffer) is not
	// listed: no later process could finish or undo it; the disk's part
	// of the commit is (issue: an editor edit killed half applied).
	all := journalFiles(ps)
	j.rec.Files = j.rec.Files[:0]
	for k, p := range ps {
		if p.Buffer {
			continue
		}
		f := all[k]
		f.Old, f.New = sums[k].old, sums[k].new
		f.Temp, f.BackT = p.Staged, p.Kept
		j.rec.Files = append(j.rec.Files, f)
	}
	// The way back is written first, beside the journal (never acted on
	// there): turning back after a failed publish is then a rename, which
	// takes no new space (S8.1 after a double fault: the journal's disk
	// full when a publish fails).
	j.rec.Phase = phaseBack
	j.backPath = strings.TrimSuffix(j.path, journalExt) + backExt
	bf, err := j.write(fault, j.backPath, true)
	if err != nil {
		return err
	}
	j.backF = bf
	j.rec.Phase = phaseForward
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
	f, err := j.write(fault, j.path, durable)
	if err != nil {
		return err
	}
	if j.f != nil {
		j.f.Close() // the record it held is replaced
	}
	j.f = f
	return nil
}

// write writes the journal's record under a temp name, locked, renames it
// to path, and when durable fsyncs the file first and the directory
// after; it gives the file, still locked.
func (j *journal) write(fault func(step, path string) error, path string, durable bool) (*os.File, error) {
	if fault != nil {
		if err := fault("journal", path); err != nil {
			return nil, fmt.Errorf("writing the intent journal %s: %w", path, err)
		}
	}
	fail := func(err error) (*os.File, error) {
		return nil, fmt.Errorf("writing the intent journal %s: %v", path, err)
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return fail(err)
	}
	key, err := journalKey(j.dir)
	if err != nil {
		return fail(err)
	}
	rec, err := json.Marshal(j.rec)
	if err != nil {
		return fail(err)
	}
	tmp := strings.TrimSuffix(j.path, journalExt) + ".tmp"
	var f *os.File
	for {
		f, err = openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fail(err)
		}
		if err := lockFile(f, lockEx); err != nil {
			f.Close()
			return fail(err)
		}
		if sameFile(f, tmp) {
			break
		}
		f.Close() // a finder swept it before the lock: make it again
	}
	data, err := sealed(key, j.at.Root, int(f.Fd()), rec)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil && durable {
		err = syncData(f)
	}
	if err == nil {
		err = renameReplace(tmp, path)
	}
	if err == nil && durable {
		err = syncDir(j.dir)
	}
	if err != nil {
		os.Remove(tmp)
		f.Close()
		return fail(err)
	}
	return f, nil
}

// back turns the journal into the way back: the way back forward wrote
// beside it renamed over it (no new space). A nil journal does nothing.
func (j *journal) back(fault func(step, path string) error) error {
	if j == nil {
		return nil
	}
	if j.backF == nil {
		return errors.New("no way back was written")
	}
	err := error(nil)
	if fault != nil {
		err = fault("turnback", j.path)
	}
	if err == nil {
		err = renameReplace(j.backPath, j.path)
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		return fmt.Errorf("turning the intent journal %s back: %v", j.path, err)
	}
	j.f.Close()
	j.f, j.backF, j.backPath = j.backF, nil, ""
	return nil
}

// end removes the journal after the last publish and ends its lock. A nil
// journal does nothing.
func (j *journal) end(fault func(step, path string) error) error {
	if j == nil || j.f == nil {
		return nil
	}
	defer func() { j.f.Close(); j.f = nil }()
	if j.backF != nil {
		defer func() { j.backF.Close(); j.backF = nil }()
	}
	if fault != nil {
		if err := fault("unjournal", j.path); err != nil {
			return fmt.Errorf("unjournal %s: %w", j.path, err)
		}
	}
	if j.backF != nil {
		// the way back was not taken: it goes first, so that a crash
		// never leaves it without its journal
		os.Remove(j.backPath)
	}
	return os.Remove(j.path)
}
