package shell

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The open handler opens the real path it judged, never a link swapped
// in after (red team): a directory of the judged path that became a link
// out of the workspace makes the open fail, and nothing is written where
// the link leads. The race itself (a pipeline stage running mv between
// the judgement and the open) is left to chance in a real run; here the
// swap is done between the two by hand.
func TestOpenRealRefusesALinkSwappedIn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("openat2 is Linux's")
	}
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "home", "proj")
	for _, d := range []string{filepath.Join(root, "P", "x"), filepath.Join(root, "Q")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	judged := filepath.Join(root, "P", "x", ".bashrc") // judged inside: P/x is a directory
	if err := os.Symlink(home, filepath.Join(root, "Q", "x")); err != nil {
		t.Fatal(err)
	}
	// the swap: mv P T; mv Q P
	if err := os.Rename(filepath.Join(root, "P"), filepath.Join(root, "T")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "Q"), filepath.Join(root, "P")); err != nil {
		t.Fatal(err)
	}
	f, err := openReal(judged, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err == nil {
		f.Close()
		t.Errorf("openReal followed the link swapped in")
	}
	if _, err := os.Lstat(filepath.Join(home, ".bashrc")); err == nil {
		t.Errorf("a file appeared in the home through the link")
	}
	// the judged path as it was still opens
	plain := filepath.Join(root, "T", "x", "ok.txt")
	f, err = openReal(plain, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatalf("a plain path: %v", err)
	}
	f.Close()
	f, err = openReal(plain, os.O_RDONLY, 0)
	if err != nil {
		t.Fatalf("reading it back: %v", err)
	}
	f.Close()
}
