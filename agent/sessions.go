package agent

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

// SessionInfo is one session as eukhe sessions lists it.
type SessionInfo struct {
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

// SessionsDir is the directory of the session logs and transcripts for
// this environment.
func SessionsDir(env map[string]string) string {
	return filepath.Dir(SessionLogPath(env, "x"))
}

// ListSessions lists the sessions with a transcript in dir, newest first
// (by their last call, else their start).
func ListSessions(dir string) ([]SessionInfo, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []SessionInfo
	for _, de := range des {
		if !de.IsDir() || !ValidSessionID(de.Name()) {
			continue
		}
		if info, ok := ReadSession(dir, de.Name()); ok {
			out = append(out, info)
		}
	}
	newest := func(s SessionInfo) time.Time {
		if !s.Last.IsZero() {
			return s.Last
		}
		return s.Start
	}
	sort.SliceStable(out, func(i, j int) bool { return newest(out[i]).After(newest(out[j])) })
	return out, nil
}

// ReadSession reads one session's transcript; false when it has none.
func ReadSession(dir, id string) (SessionInfo, bool) {
	tdir := filepath.Join(dir, id)
	m, err := storedMeta(tdir)
	if err != nil {
		return SessionInfo{}, false
	}
	info := SessionInfo{ID: id, Parent: m.Parent, Root: m.Root, Client: m.Client, Start: m.Start}
	if fi, err := os.Stat(filepath.Join(tdir, "meta.json")); err == nil && info.Start.IsZero() {
		info.Start = fi.ModTime()
	}
	if l, err := readLog(tdir); err == nil {
		_, info.Calls = l.span()
		for _, r := range l.rows {
			if r.Time.After(info.Last) {
				info.Last = r.Time
			}
		}
		l.close()
	}
	info.Open = transcriptHeld(tdir)
	return info, true
}

// SessionCalls are the calls a session's transcript keeps, in order, and
// the first line of each one's result (what landed, or why not).
func SessionCalls(dir, id string) (rows []CallRow, outcome []string, dropped int, err error) {
	l, err := readLog(filepath.Join(dir, id))
	if err != nil {
		return nil, nil, 0, err
	}
	defer l.close()
	for _, r := range l.kept() {
		rows = append(rows, r)
		first := ""
		if b, err := l.body(r.ID); err == nil {
			sc := bufio.NewScanner(strings.NewReader(string(b)))
			sc.Buffer(make([]byte, 4096), 1<<20)
			if sc.Scan() {
				first = sc.Text()
			}
		}
		outcome = append(outcome, first)
	}
	return rows, outcome, l.drop, nil
}

// transcriptHeld tells whether an open session holds the transcript in
// tdir (its lock is taken).
func transcriptHeld(tdir string) bool {
	unlock, held, _, _ := tryLockDir(tdir)
	if unlock != nil {
		unlock()
	}
	return held
}
