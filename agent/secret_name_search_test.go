package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// Class 8 (G1.5) by another name: a tree search of a directory that holds
// a hard link of a secret file (~/dotfiles/aws_credentials, linked by the
// user to ~/.aws/credentials) is judged by its paths, none of which is
// secret; the walk met the file, saw it has more than one name, and asks
// the gate: it is left out of the search, and the reply says so. The
// same file in the workspace is left out of a search of the workspace.
// (The eleventh red team's search row, open until now: its gate test
// wanted the search itself judged secret; the search leaves the file out
// instead, so a search of ~/dotfiles still runs without a question.)
func TestATreeSearchLeavesOutAnotherNameOfASecret(t *testing.T) {
	testkit.HardLinkSearch(t)
	w := newLocalWorld(t)
	aws := filepath.Join(w.home, ".aws", "credentials")
	dot := filepath.Join(w.home, "dotfiles")
	if err := os.MkdirAll(dot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(aws, filepath.Join(dot, "aws_credentials")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dot, "notes.txt"), []byte("aws_secret_access_key is kept elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(aws, filepath.Join(w.root, "creds.txt")); err != nil {
		t.Fatal(err)
	}
	l := w.open(t, nil)
	for _, a := range []map[string]any{
		{"pattern": "aws_secret_access_key", "path": dot},
		{"pattern": "aws_secret_access_key", "path": "~/dotfiles", "noIgnore": true},
		{"pattern": "aws_secret_access_key"},
		{"pattern": "aws", "path": dot, "glob": "aws_*"},
	} {
		text, _ := call(t, l, "grep", a)
		if strings.Contains(text, localCanary) {
			t.Fatalf("grep %v printed the secret through its other name:\n%s", a, text)
		}
		if !strings.Contains(text, "another name (a hard link) of a secret file") {
			t.Errorf("grep %v does not say a file was left out:\n%s", a, text)
		}
	}
	// the file by its own name still asks (headless: refused)
	text, failed := call(t, l, "read", map[string]any{"path": filepath.Join(dot, "aws_credentials")})
	if !failed || strings.Contains(text, localCanary) {
		t.Fatalf("read of the other name: %s", text)
	}
	// a search that meets no such file says nothing of it
	text, _ = call(t, l, "grep", map[string]any{"pattern": "kept elsewhere", "path": filepath.Join(dot, "notes.txt")})
	if strings.Contains(text, "hard link") || !strings.Contains(text, "kept elsewhere") {
		t.Fatalf("grep of notes.txt: %s", text)
	}
}
