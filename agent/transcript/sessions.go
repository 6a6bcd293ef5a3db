package transcript

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// What a user can look at afterwards (eukhe sessions, eukhe log): each
// session's transcript directory names its root, its client and its start
// (meta.json), and holds its calls with their times, the questions each
// asked and how they were answered (calls.log). A call that touched a
// secret the user allowed keeps only a note, here as in memory://.

// Info is one session as eukhe sessions lists it.
type Info struct {
	ID, Parent, Root, Client string
	Start                    time.Time
	// Calls is how many calls it served (the last call's number; the
	// oldest may have been dropped from its transcript).
	Calls int
	// Last is when its last call ended; zero without one.
	Last time.Time
	// Open tells whether the session is still running (it holds its
	// transcript's lock).
	Open bool
}

// List lists the sessions with a transcript in the sessions directory
// dir, newest first (by their last call, else their start).
func List(dir string) ([]Info, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []Info
	for _, de := range des {
		if !de.IsDir() || !ValidSessionID(de.Name()) {
			continue
		}
		if info, ok := ReadInfo(dir, de.Name()); ok {
			out = append(out, info)
		}
	}
	newest := func(s Info) time.Time {
		if !s.Last.IsZero() {
			return s.Last
		}
		return s.Start
	}
	sort.SliceStable(out, func(i, j int) bool { return newest(out[i]).After(newest(out[j])) })
	return out, nil
}

// ReadInfo reads one session's transcript in the sessions directory dir;
// false when it has none.
func ReadInfo(dir, id string) (Info, bool) {
	tdir := filepath.Join(dir, id)
	m, err := readMeta(tdir)
	if err != nil {
		return Info{}, false
	}
	info := Info{ID: id, Parent: m.Parent, Root: m.Root, Client: m.Client, Start: m.Start}
	if fi, err := os.Stat(filepath.Join(tdir, "meta.json")); err == nil && info.Start.IsZero() {
		info.Start = fi.ModTime()
	}
	if l, err := ReadLog(tdir); err == nil {
		_, info.Calls = l.Span()
		for _, r := range l.Rows {
			if r.Time.After(info.Last) {
				info.Last = r.Time
			}
		}
		l.Close()
	}
	info.Open = held(tdir)
	return info, true
}

// Calls are the calls a session's transcript in the sessions directory
// dir keeps, in order, and the first line of each one's result (what
// landed, or why not), and the drop mark.
func Calls(dir, id string) (rows []CallRow, outcome []string, dropped int, err error) {
	l, err := ReadLog(filepath.Join(dir, id))
	if err != nil {
		return nil, nil, 0, err
	}
	defer l.Close()
	for _, r := range l.Kept() {
		rows = append(rows, r)
		first := ""
		if b, err := l.Body(r.ID); err == nil {
			sc := bufio.NewScanner(strings.NewReader(string(b)))
			sc.Buffer(make([]byte, 4096), 1<<20)
			if sc.Scan() {
				first = sc.Text()
			}
		}
		outcome = append(outcome, first)
	}
	return rows, outcome, l.Drop, nil
}

// OnParentChain tells whether reader is on the parent chain of session
// id (its parent, its parent's parent, …) from the transcripts' meta.json
// in the sessions directory; found is false when id has no transcript
// there. agent:// reads a subagent's transcript for its parent chain only.
// A directory is id's only when its meta names id itself: on a file system
// that folds case (NTFS, APFS by default) "LEAF" opens the directory of
// session "leaf", which is not session LEAF's.
func OnParentChain(sessions, id, reader string) (found, on bool) {
	m, err := readMeta(filepath.Join(sessions, id))
	if err != nil || m.Session != id {
		return false, false
	}
	seen := map[string]bool{id: true}
	for p := m.Parent; p != "" && !seen[p] && len(seen) < 64; {
		if p == reader {
			return true, true
		}
		seen[p] = true
		pm, err := readMeta(filepath.Join(sessions, p))
		if err != nil || pm.Session != p {
			break
		}
		p = pm.Parent
	}
	return true, false
}

// held tells whether an open session holds the transcript in tdir (its
// lock is taken).
func held(tdir string) bool {
	unlock, held, _, _ := tryLockDir(tdir)
	if unlock != nil {
		unlock()
	}
	return held
}

// Remove removes the transcript directory dir unless an open session
// holds it, taking its lock itself while it removes it (a session cannot
// open it meanwhile); nothing is followed through a link. True when the
// directory is gone, or was never there.
func Remove(dir string) bool {
	unlock, held, missing, err := tryLockDir(dir)
	switch {
	case held:
		return false // an open session holds it
	case err == nil:
		return removeLocked(dir, unlock)
	}
	return missing
}
