//go:build linux

package settings

// The fifteenth red team's attacks on the startup-file scan of a login
// shell that did not answer that HELD (the open ones are in
// redteam15_open_attacks_test.go, build tag open_attacks).

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target 3), the control of the end-to-end row: the same slow
// zsh with its zshrc in the home (no ZDOTDIR).
// Held: the scan reads ~/.zshrc and the write of tools/ls is protected.
func TestRedteam15_SlowZshInTheHomeHasItsRelativeEntryProtected(t *testing.T) {
	env, ws := r15zshHomeHeld(t)
	p, _ := Locate(env, []string{ws}).Policy(env)
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c < gate.ClassProtected {
		t.Errorf("THROUGH: a write of tools/ls (tools on the slow zsh's PATH) is %v", c)
	}
}

func r15zshHomeHeld(t *testing.T) (map[string]string, string) {
	t.Helper()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed")
	}
	shortLinger(t, 200*time.Millisecond)
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte("sleep 30\npath=(tools $path)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}, ws
}
