package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// While a process runs, a protected name made in a watched directory, or
// in a directory made there since, or renamed into place inside a new
// tree, is renamed out of use at once; with no process running, nothing
// is touched (the look after a process decides then).
func TestLiveWatchRenamesProtectedNamesWhileAProcessRuns(t *testing.T) {
	if underWine() {
		t.Skip("under Wine 8 the watch (fsnotify over ReadDirectoryChangesW) renamed nothing in 5 s; not yet told whether Wine's change notification or the watch's Windows paths are why (it has not run on Windows)")
	}
	root := t.TempDir()
	var l liveTree
	defer l.close()
	l.enable()
	l.watch(root)
	names := []string{".git", ".vscode"}

	if err := os.Mkdir(filepath.Join(root, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Lstat(filepath.Join(root, ".vscode")); err != nil {
		t.Fatalf("with no process running, the watch renamed an entry: %v", err)
	}

	end := l.begin([]string{root}, names, "t1")
	// the watch may rename .git before hooks is made in it: that is the
	// point (MkdirAll then fails)
	if err := os.MkdirAll(filepath.Join(root, "a", "b", ".git", "hooks"), 0o755); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	stage := filepath.Join(t.TempDir(), "stage")
	if err := os.MkdirAll(filepath.Join(stage, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(stage, filepath.Join(root, "c")); err != nil {
		t.Fatal(err)
	}
	gone := func(p string) bool { _, err := os.Lstat(filepath.Join(root, p)); return os.IsNotExist(err) }
	deadline := time.Now().Add(5 * time.Second)
	for !(gone("a/b/.git") && gone("c/.git")) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	renamed := end()
	for _, p := range []string{"a/b/.git", "c/.git"} {
		if !gone(p) {
			t.Errorf("%s is still in use while the process ran", p)
		}
		if !strings.Contains(strings.Join(renamed, "\n"), filepath.Join(root, p)+" → ") {
			t.Errorf("the end of the watch does not tell %s was renamed: %q", p, renamed)
		}
	}
}
