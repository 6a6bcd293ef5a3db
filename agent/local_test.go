package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// localWorld is a fake home with keys, a workspace with a .git under it,
// and the user's settings narrowing the auto set to {read, write}.
type localWorld struct {
	home, root string
	env        map[string]string
}

const localCanary = "CANARY-7d1e-PRIVATE-KEY"

func newLocalWorld(t *testing.T) *localWorld {
	t.Helper()
	home := t.TempDir()
	w := &localWorld{home: home, root: filepath.Join(home, "ws")}
	files := map[string]string{
		".ssh/id_rsa":                   "-----BEGIN OPENSSH PRIVATE KEY-----\n" + localCanary + "\n",
		".aws/credentials":              "[default]\naws_secret_access_key = " + localCanary + "-aws\n",
		".bashrc":                       "export EDITOR=vi\n",
		".config/eukhe/settings.json":   `{"shell.autoEffects": ["read", "write"]}`,
		"ws/a.txt":                      "PRIVATE words in the workspace\n",
		"ws/.git/HEAD":                  "ref: refs/heads/main\n",
		"ws/.git/hooks/pre-commit.hint": "\n",
	}
	for name, text := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w.env = map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "XDG_STATE_HOME": filepath.Join(home, ".local", "state")}
	return w
}

func (w *localWorld) open(t *testing.T, client func(context.Context, gate.Question) gate.Answer) *Local {
	t.Helper()
	l, err := OpenLocal(LocalOptions{Root: w.root, Env: w.env, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

func call(t *testing.T, l *Local, name string, args any) (string, bool) {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := l.Call(context.Background(), name, b)
	if err != nil {
		t.Fatalf("%s %s: %v", name, b, err)
	}
	return res.Text(), res.Failed()
}

// Class 8 (G1.5): a search of a path that is or holds a secret is read
// and secret; headless it is refused with the refusal text, whatever the
// spelling of the path: .., a chain of .., ~, an absolute path, the file
// system's root, noIgnore, a pattern that names .ssh. (Through a link:
// the next test.)
func TestLocalSearchOfASecretIsRefusedHeadless(t *testing.T) {
	w := newLocalWorld(t)
	l := w.open(t, nil)
	top := filepath.VolumeName(w.root) + string(filepath.Separator) // "/", or "C:\"
	attacks := []struct {
		tool string
		args map[string]any
	}{
		{"grep", map[string]any{"pattern": "PRIVATE", "path": ".."}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "..", "noIgnore": true}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "../ws/../.."}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "~"}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "~/"}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": w.home}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "~/.ssh/id_rsa:1-"}},
		{"grep", map[string]any{"pattern": "aws", "path": "..", "glob": ".aws/*"}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": top, "glob": "**/id_rsa"}},
		{"glob", map[string]any{"pattern": "**", "path": "~"}},
		{"glob", map[string]any{"pattern": ".ssh/**", "path": ".."}},
		{"glob", map[string]any{"pattern": "*", "path": "~/.ssh"}},
		{"read", map[string]any{"path": "~/.ssh/id_rsa"}},
		{"read", map[string]any{"path": "~/.ssh"}},
	}
	for _, a := range attacks {
		text, failed := call(t, l, a.tool, a.args)
		if !failed || !strings.Contains(text, "secret") || !strings.Contains(text, "no one answered") || strings.Contains(text, localCanary) || strings.Contains(text, "id_rsa\n") {
			t.Errorf("%s %v: failed %v\n%s", a.tool, a.args, failed, text)
		}
	}
	// the workspace itself is searched unasked
	text, failed := call(t, l, "grep", map[string]any{"pattern": "PRIVATE"})
	if failed || !strings.Contains(text, "a.txt") || strings.Contains(text, localCanary) {
		t.Errorf("grep of the workspace: %s", text)
	}
	text, failed = call(t, l, "glob", map[string]any{"pattern": "**", "noIgnore": true})
	if failed || strings.Contains(text, "id_rsa") {
		t.Errorf("glob of the workspace: %s", text)
	}
}

// Class 8 through a link: a search or read through a link in the
// workspace to the home or into .ssh is refused headless as the secret it
// reaches; a search of the workspace does not follow the link into .ssh,
// and counts it.
func TestLocalSearchThroughALinkToASecretIsRefusedHeadless(t *testing.T) {
	testkit.NeedSymlinks(t)
	w := newLocalWorld(t)
	if err := os.Symlink(w.home, filepath.Join(w.root, "homelink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(w.home, ".ssh"), filepath.Join(w.root, "keys")); err != nil {
		t.Fatal(err)
	}
	l := w.open(t, nil)
	attacks := []struct {
		tool string
		args map[string]any
	}{
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "homelink"}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "keys"}},
		{"grep", map[string]any{"pattern": "PRIVATE", "path": "keys/id_rsa"}},
		{"glob", map[string]any{"pattern": "**", "path": "homelink"}},
		{"glob", map[string]any{"pattern": "**", "path": "keys", "noIgnore": true}},
		{"read", map[string]any{"path": "keys/id_rsa"}},
		{"read", map[string]any{"path": "homelink/.aws/credentials", "raw": true}},
	}
	for _, a := range attacks {
		text, failed := call(t, l, a.tool, a.args)
		if !failed || !strings.Contains(text, "secret") || !strings.Contains(text, "no one answered") || strings.Contains(text, localCanary) || strings.Contains(text, "id_rsa\n") {
			t.Errorf("%s %v: failed %v\n%s", a.tool, a.args, failed, text)
		}
	}
	text, failed := call(t, l, "grep", map[string]any{"pattern": "PRIVATE"})
	if failed || !strings.Contains(text, "a.txt") || strings.Contains(text, localCanary) || !strings.Contains(text, "not followed") {
		t.Errorf("grep of the workspace: %s", text)
	}
	text, failed = call(t, l, "glob", map[string]any{"pattern": "**", "noIgnore": true})
	if failed || strings.Contains(text, "id_rsa") {
		t.Errorf("glob of the workspace: %s", text)
	}
}

// A search that asks names the real path searched; approved, it runs.
func TestLocalSearchOfAHomeAsksWithItsRealPath(t *testing.T) {
	w := newLocalWorld(t)
	var asked []gate.Question
	l := w.open(t, func(_ context.Context, q gate.Question) gate.Answer { asked = append(asked, q); return gate.Approve })
	text, failed := call(t, l, "grep", map[string]any{"pattern": "EDITOR", "path": ".."})
	if failed || !strings.Contains(text, ".bashrc") {
		t.Fatalf("approved grep: %s", text)
	}
	real, _ := filepath.EvalSymlinks(w.home)
	if len(asked) != 1 || asked[0].What != "search "+gate.Visible(real) || !asked[0].Effects.Has(gate.Secret) {
		t.Fatalf("asked %+v", asked)
	}
}

// Class 10: the session eukhe tool and eukhe mcp build carries the user's
// auto set: a write into .git or outside the workspace is refused
// headless; a write inside runs.
func TestLocalWritesFollowTheUsersAutoSet(t *testing.T) {
	w := newLocalWorld(t)
	l := w.open(t, nil)
	for _, p := range []string{".git/hooks/pre-commit", ".git/config", "../planted.sh", "~/.ssh/authorized_keys", "~/.bashrc2", filepath.Join(w.home, ".config/eukhe/settings.json")} {
		text, failed := call(t, l, "write", map[string]any{"path": p, "content": "#!/bin/sh\necho pwned\n"})
		if !failed || !strings.Contains(text, "no one answered") {
			t.Errorf("write %s: %s", p, text)
		}
	}
	for _, p := range []string{".git/hooks/pre-commit", ".git/config"} {
		if _, err := os.Stat(filepath.Join(w.root, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, "planted.sh")); err == nil {
		t.Error("planted.sh was written outside the workspace")
	}
	if text, failed := call(t, l, "write", map[string]any{"path": "new.txt", "content": "x\n"}); failed {
		t.Errorf("write inside: %s", text)
	}
	// bash runs behind the same settings: a write outside asks
	text, failed := call(t, l, "bash", map[string]any{"script": "echo x > ../out.txt"})
	if !failed || !strings.Contains(text, "unanswered") {
		t.Errorf("bash outside write: %s", text)
	}
}

// Issue 17 item 8: ~ in a tool path is the home, as the shell expands it,
// and the gate judges the expanded path.
func TestLocalTildeIsTheHome(t *testing.T) {
	w := newLocalWorld(t)
	l := w.open(t, nil)
	text, failed := call(t, l, "read", map[string]any{"path": "~/.bashrc"})
	if failed || !strings.Contains(text, "1:export EDITOR=vi") {
		t.Fatalf("read ~/.bashrc: %s", text)
	}
	text, failed = call(t, l, "read", map[string]any{"path": "~+/a.txt"})
	if failed || !strings.Contains(text, "[a.txt#") {
		t.Fatalf("read ~+/a.txt: %s", text)
	}
}

// Call refuses what is not a call: an unknown tool, arguments that are
// not an object of the tool's parameters.
func TestLocalCallShapeErrors(t *testing.T) {
	w := newLocalWorld(t)
	l := w.open(t, nil)
	if _, err := l.Call(context.Background(), "rm", nil); err == nil || !strings.Contains(err.Error(), "read, edit, write, grep, glob, bash, ipython, dyn") {
		t.Errorf("unknown tool: %v", err)
	}
	for _, raw := range []string{`{not json`, `[]`, `{"path": "a", "bogus": 1}`} {
		var ae *ArgsError
		_, err := l.Call(context.Background(), "read", json.RawMessage(raw))
		if !errorsAs(err, &ae) {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }
