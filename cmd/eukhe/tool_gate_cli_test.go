package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// eukhe tool runs in the session eukhe mcp builds (issue 12, class 10):
// the documents gate with the user's settings; headless a question is
// unanswered, the call is refused with the refusal text and exits 1.
func TestCLI_tool_goes_through_the_documents_gate(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "ws")
	put := func(name, text string) {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	put(".ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nCANARY-cli-key\n")
	put(".bashrc", "export EDITOR=vi\n")
	put(".config/eukhe/settings.json", `{"shell.autoEffects": ["read", "write"]}`)
	put("ws/.git/HEAD", "ref: refs/heads/main\n")
	put("ws/a.txt", "a\n")
	run := func(name, args string) ran {
		t.Helper()
		cmd := exec.Command(binary, "tool", name, "--root", root, args)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_STATE_HOME="+filepath.Join(home, ".state"))
		return ranOf(t, cmd)
	}
	refused := []struct{ name, args string }{
		{"read", `{"path": "~/.ssh/id_rsa"}`},
		{"read", `{"path": "../.ssh/id_rsa", "raw": true}`},
		{"grep", `{"pattern": "PRIVATE", "path": ".."}`},
		{"glob", `{"pattern": "**", "path": "~"}`},
		{"write", `{"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\necho pwned\n"}`},
		{"write", `{"path": "~/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA attacker\n"}`},
		{"edit", `{"patch": "[.git/hooks/post-checkout]\n+#!/bin/sh\n"}`},
		{"bash", `{"script": "cat ~/.ssh/id_rsa"}`},
	}
	for _, c := range refused {
		r := run(c.name, c.args)
		if r.code != 1 || strings.Contains(r.stdout+r.stderr, "CANARY") || !strings.Contains(r.stdout, "answer") {
			t.Errorf("eukhe tool %s %s: exit %d\n%s%s", c.name, c.args, r.code, r.stdout, r.stderr)
		}
	}
	for _, p := range []string{"ws/.git/hooks/pre-commit", "ws/.git/hooks/post-checkout", ".ssh/authorized_keys"} {
		if _, err := os.Stat(filepath.Join(home, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if r := run("read", `{"path": "~/.bashrc"}`); r.code != 0 || !strings.Contains(r.stdout, "1:export EDITOR=vi") {
		t.Errorf("read ~/.bashrc: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run("dyn", `{}`); r.code != 0 || !strings.Contains(r.stdout, "report_issue") {
		t.Errorf("dyn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
