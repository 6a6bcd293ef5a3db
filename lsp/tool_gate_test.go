package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The editor's eukhe/tool runs in a session built as every agent's is
// (issue 12, class 10): the documents gate with the user's settings, its
// questions in the editor's dialogs. A denied read of a key and a denied
// write into .git run nothing.
func TestEditorToolGoesThroughTheDocumentsGate(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "deny" }}
	e := approvingEditor(t, d)
	home := e.srv.opts.Env["HOME"]
	key := filepath.Join(home, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	if err := os.WriteFile(key, []byte("CANARY-lsp-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{{"path": "~/.ssh/id_rsa"}, {"path": key, "raw": true}} {
		if r := e.tool("read", args); !r.IsError || strings.Contains(r.Text, "CANARY") || !strings.Contains(r.Text, "denied") {
			t.Errorf("read %v: %+v", args, r)
		}
	}
	if r := e.tool("grep", map[string]any{"pattern": "CANARY", "path": home}); !r.IsError || strings.Contains(r.Text, "CANARY-lsp") {
		t.Errorf("grep of the home: %+v", r)
	}
	e.put(".git/HEAD", "ref: refs/heads/main\n")
	if r := e.tool("write", map[string]any{"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}); !r.IsError {
		t.Errorf("write into .git: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(e.root, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the hook was written")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.asked) != 4 {
		t.Errorf("asked %d questions, want 4 (one a call): %+v", len(d.asked), d.asked)
	}
}
