package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/internal/testkit"
)

// oldSession makes a session's log and transcript in dir, last written
// age ago.
func oldSession(t *testing.T, dir, id string, age time.Duration) {
	t.Helper()
	when := time.Now().Add(-age)
	tdir := filepath.Join(dir, id)
	if err := os.MkdirAll(tdir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(tdir, "c1"), filepath.Join(dir, id+".jsonl")} {
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, when, when)
	}
	os.Chtimes(tdir, when, when)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Sessions last written before the cutoff go, log and transcript; a session
// whose transcript is still open stays, however old; recent sessions, and
// every name that is not a session's, stay. (No link is followed: the
// next test.)
func TestPruneSessionsRemovesOnlyOldSessionsNoOneHolds(t *testing.T) {
	dir := t.TempDir()
	month, hour := 30*24*time.Hour, time.Hour
	oldSession(t, dir, "old", month)
	oldSession(t, dir, "recent", hour)
	oldSession(t, dir, "held", month)
	held, err := transcript.Open(filepath.Join(dir, "held"), "held", "") // an open session's: its lock is held
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	os.Chtimes(filepath.Join(dir, "held"), time.Now().Add(-month), time.Now().Add(-month)) // as old as the others
	oldSession(t, dir, "halfold", month)
	os.WriteFile(filepath.Join(dir, "halfold.jsonl"), []byte("a new row\n"), 0o600) // written now
	if err := os.WriteFile(filepath.Join(dir, "logonly.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	monthAgo := time.Now().Add(-month)
	os.Chtimes(filepath.Join(dir, "logonly.jsonl"), monthAgo, monthAgo)
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600)
	os.Chtimes(filepath.Join(dir, "notes.txt"), monthAgo, monthAgo)

	if n := PruneSessions(dir, time.Now().Add(-SessionKeep)); n != 2 {
		t.Errorf("removed %d sessions, want 2 (old, logonly)", n)
	}
	for name, want := range map[string]bool{
		"old": false, "old.jsonl": false, "logonly.jsonl": false,
		"recent": true, "recent.jsonl": true, "held": true, "held.jsonl": true,
		"halfold": true, "halfold.jsonl": true, "notes.txt": true,
	} {
		if got := exists(filepath.Join(dir, name)); got != want {
			t.Errorf("%s exists %v, want %v", name, got, want)
		}
	}
}

// A link in the sessions directory, however old what it leads to, is
// neither a session nor followed: it stays, and so does what it leads to.
func TestPruneSessionsFollowsNoLink(t *testing.T) {
	testkit.NeedSymlinks(t)
	dir, outside := t.TempDir(), t.TempDir()
	monthAgo := time.Now().Add(-30 * 24 * time.Hour)
	os.WriteFile(filepath.Join(outside, "keep"), []byte("not eukhe's"), 0o600)
	os.Chtimes(outside, monthAgo, monthAgo)
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if n := PruneSessions(dir, time.Now().Add(-SessionKeep)); n != 0 {
		t.Errorf("removed %d sessions, want none", n)
	}
	if !exists(filepath.Join(dir, "linked")) {
		t.Error("the link in the sessions directory was removed")
	}
	if !exists(filepath.Join(outside, "keep")) {
		t.Error("a file behind a link in the sessions directory was removed")
	}
}

// An open transcript holds its directory until the session closes it.
func TestOpenTranscriptHoldsItsDirectoryUntilClosed(t *testing.T) {
	dir := t.TempDir()
	tr, err := transcript.Open(filepath.Join(dir, "s1"), "s1", "")
	if err != nil {
		t.Fatal(err)
	}
	monthAgo := time.Now().Add(-30 * 24 * time.Hour)
	os.Chtimes(filepath.Join(dir, "s1"), monthAgo, monthAgo)
	if n := PruneSessions(dir, time.Now()); n != 0 || !exists(filepath.Join(dir, "s1")) {
		t.Fatalf("an open transcript was pruned (%d removed)", n)
	}
	tr.Close()
	if n := PruneSessions(dir, time.Now()); n != 1 || exists(filepath.Join(dir, "s1")) {
		t.Fatalf("a closed, old transcript stayed (%d removed)", n)
	}
}

// Opening a session with a log prunes its sessions directory.
func TestOpeningASessionPrunesOldSessions(t *testing.T) {
	dir := t.TempDir()
	oldSession(t, dir, "gone", 30*24*time.Hour)
	s, err := Open(Options{Host: &Headless{RootDir: t.TempDir(), Disk: docs.NewDisk()}, ID: "fresh", LogPath: filepath.Join(dir, "fresh.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deadline := time.Now().Add(10 * time.Second)
	for exists(filepath.Join(dir, "gone")) || exists(filepath.Join(dir, "gone.jsonl")) {
		if time.Now().After(deadline) {
			t.Fatal("the old session is still there 10 s after a session opened beside it")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !exists(filepath.Join(dir, "fresh")) {
		t.Error("the new session has no transcript")
	}
}

// A directory pruned less than a day ago is not listed again: a process
// that makes one call pays one stat. A day later it is.
func TestSessionsArePrunedOnceADay(t *testing.T) {
	dir := t.TempDir()
	oldSession(t, dir, "gone", 30*24*time.Hour)
	os.WriteFile(filepath.Join(dir, prunedMark), nil, 0o600) // pruned just now, by another process
	pruneSessionsOnce(dir)
	time.Sleep(200 * time.Millisecond)
	if !exists(filepath.Join(dir, "gone")) {
		t.Fatal("pruned again within the day")
	}
	dayAgo := time.Now().Add(-25 * time.Hour)
	os.Chtimes(filepath.Join(dir, prunedMark), dayAgo, dayAgo)
	prunedDirs.Delete(dir) // as a new process would
	pruneSessionsOnce(dir)
	deadline := time.Now().Add(10 * time.Second)
	for exists(filepath.Join(dir, "gone")) {
		if time.Now().After(deadline) {
			t.Fatal("not pruned a day after the last pruning")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fi, err := os.Stat(filepath.Join(dir, prunedMark)); err != nil || time.Since(fi.ModTime()) > time.Minute {
		t.Errorf("the mark was not renewed: %v", err)
	}
}
