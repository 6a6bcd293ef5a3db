package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/eukhe/eukhe/agent/transcript"
)

// Session logs (ID.jsonl) and transcripts (ID/) are kept for SessionKeep
// after their last write, then removed by the next session that opens in
// the same state directory — unless a session still holds the transcript
// (an open transcript keeps a lock on its directory: a parent may read a
// subagent's transcript for as long as the subagent lives, and after).
const SessionKeep = 14 * 24 * time.Hour

// prunedDirs are the sessions directories this process has pruned (or is
// pruning): once each.
var prunedDirs sync.Map

// pruneEvery is how often the sessions directory is pruned: once a day is
// plenty for a 14-day rule, and a process that makes one call (eukhe tool)
// then pays one stat, not a listing of every session.
const pruneEvery = 24 * time.Hour

// prunedMark is the file in the sessions directory whose modification time
// says when it was last pruned.
const prunedMark = ".pruned"

// pruneSessionsOnce prunes a sessions directory in the background, the
// first time a session of this process opens in it, when no process has
// pruned it in the last pruneEvery.
// It gives a channel closed when that prune is done (nil when none was
// started): the session that started it waits for it as it closes, so
// nothing is written into the directory after the last session of the
// process closed.
func pruneSessionsOnce(dir string) <-chan struct{} {
	if _, done := prunedDirs.LoadOrStore(dir, true); done {
		return nil
	}
	mark := filepath.Join(dir, prunedMark)
	now := time.Now()
	if fi, err := os.Lstat(mark); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) < pruneEvery && !fi.ModTime().After(now) {
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|oNoFollow, 0o600); err == nil {
			f.Close()
			os.Chtimes(mark, now, now)
		}
		PruneSessions(dir, now.Add(-SessionKeep))
	}()
	return done
}

// PruneSessions removes from the sessions directory dir every session whose
// log and transcript were both last written before cutoff and whose
// transcript no open session holds; it gives how many it removed. Names
// that are not a session's are left alone, and nothing is followed through
// a link.
func PruneSessions(dir string, cutoff time.Time) int {
	des, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	last := map[string]time.Time{}
	for _, de := range des {
		name := de.Name()
		id := strings.TrimSuffix(name, ".jsonl")
		if !transcript.ValidSessionID(id) || (id == name) != de.IsDir() {
			continue // a log is a file, a transcript a directory
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		mod := fi.ModTime()
		if de.IsDir() {
			// calls.log is appended to, which leaves its directory's time
			if li, err := os.Lstat(filepath.Join(dir, name, transcript.CallsLog)); err == nil && li.ModTime().After(mod) {
				mod = li.ModTime()
			}
		}
		if t, seen := last[id]; !seen || mod.After(t) {
			last[id] = mod
		}
	}
	removed := 0
	for id, t := range last {
		if t.Before(cutoff) && removeSession(dir, id) {
			removed++
		}
	}
	return removed
}

// removeSession removes one session's transcript, while it holds the
// transcript's lock itself (so a session that holds it is left alone:
// transcript.Remove), then its log.
func removeSession(dir, id string) bool {
	if !transcript.Remove(filepath.Join(dir, id)) {
		return false
	}
	err := os.Remove(filepath.Join(dir, id+".jsonl"))
	return err == nil || errors.Is(err, fs.ErrNotExist)
}
