//go:build linux

package agent

// The thirteenth red team's attacks on the other names of a secret file
// (gate.SecretName, Inode.Changed and its slack), through the tools of
// a local session (read, grep, glob, dyn, write, bash). These held.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Attack (targets 5 and 6): ~/.aws/credentials gets a second name in the
// workspace (ws/creds.txt) — once before the first tool call, once right
// after a search that walked ~/.aws (the kept walk, inside the ctime
// slack), once more than a second after that walk (past the slack,
// within the kept walk's minute) — and each name is read by every route:
// read by path, through a workspace symlink, raw; grep of the
// single file, of the tree, with a glob, through a symlink to the
// workspace; dyn calling read and grep; write, a bash redirection and
// truncate of it; bash cat, head of a glob, sort -m of a glob, cat <.
// (bash's tree reads get through: redteam13_open13_test.go.) None may
// show the token, or change the file.
// Class: another name of a secret, read by a route the search misses.
func TestRedteam13_HardLinkToSecretByEveryRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps past the slack")
	}
	w := newLocalWorld(t)
	aws := filepath.Join(w.home, ".aws", "credentials")
	if err := os.Link(aws, filepath.Join(w.root, "creds.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.root, filepath.Join(w.home, "wslink")); err != nil {
		t.Fatal(err)
	}
	l := w.open(t, nil)
	routes := func(name string) []struct {
		tool string
		args map[string]any
	} {
		base := filepath.Base(name)
		return []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"path": name}},
			{"read", map[string]any{"path": filepath.Join(w.home, "wslink", base)}},
			{"read", map[string]any{"path": name, "raw": true}},
			{"grep", map[string]any{"pattern": "aws_secret", "path": name}},
			{"grep", map[string]any{"pattern": "aws_secret"}},
			{"grep", map[string]any{"pattern": "aws_secret", "glob": "*.txt"}},
			{"grep", map[string]any{"pattern": "aws_secret", "path": filepath.Join(w.home, "wslink")}},
			{"grep", map[string]any{"pattern": "aws_secret", "path": filepath.Join(w.home, "wslink", base)}},
			{"glob", map[string]any{"pattern": "*"}},
			{"dyn", map[string]any{"name": "read", "arguments": map[string]any{"path": name}}},
			{"dyn", map[string]any{"name": "grep", "arguments": map[string]any{"pattern": "aws_secret", "path": name}}},
			{"bash", map[string]any{"script": "cat " + base}},
			{"bash", map[string]any{"script": "head -n 5 *.txt"}},
			{"bash", map[string]any{"script": "sort -m *.txt"}},
			{"bash", map[string]any{"script": "cat < " + base}},
		}
	}
	try := func(when, name string) {
		for _, r := range routes(name) {
			text, _ := call(t, l, r.tool, r.args)
			if strings.Contains(text, localCanary) {
				t.Errorf("ESCAPED (%s): %s %v showed the token:\n%s", when, r.tool, r.args, text)
			}
		}
		for _, r := range []struct {
			tool string
			args map[string]any
		}{
			{"write", map[string]any{"path": name, "content": "[default]\n"}},
			{"bash", map[string]any{"script": "echo '[x]' > " + filepath.Base(name)}},
			{"bash", map[string]any{"script": "truncate -s 0 " + filepath.Base(name)}},
		} {
			call(t, l, r.tool, r.args)
		}
		if b, _ := os.ReadFile(aws); !strings.Contains(string(b), localCanary) {
			t.Errorf("ESCAPED (%s): the secret was written through %s: %q", when, name, b)
		}
	}
	try("linked before", filepath.Join(w.root, "creds.txt"))
	// a second name made right after a search walked ~/.aws
	call(t, l, "grep", map[string]any{"pattern": "x", "path": filepath.Join(w.home, "ws")})
	fresh := filepath.Join(w.root, "fresh.txt")
	if err := os.Link(aws, fresh); err != nil {
		t.Fatal(err)
	}
	try("linked in the slack", fresh)
	// and one made 1.2 s after the last walk, within its minute
	os.Remove(fresh)
	os.Remove(filepath.Join(w.root, "creds.txt"))
	call(t, l, "read", map[string]any{"path": filepath.Join(w.root, "a.txt")})
	time.Sleep(1200 * time.Millisecond)
	late := filepath.Join(w.root, "late.txt")
	if err := os.Link(aws, late); err != nil {
		t.Fatal(err)
	}
	try("linked past the slack", late)
}
