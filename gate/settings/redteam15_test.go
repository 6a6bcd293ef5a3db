//go:build linux

package settings

// The fifteenth red team's attacks on the startup-file scan of a login
// shell that did not answer that HELD (the open ones are in
// redteam15_open_attacks_test.go, build tag open_attacks).

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// Attack (target 5): a ~/.bashrc slower than the wait whose HUP trap
// answers the hangup with a child that runs on (the hang-up-once rule
// leaves a hung-up process's newcomer alone: it is taken for the trap's
// rm), ignoring the hangup and the grace: a process the user never sees
// that outlives the ask.
// Held: the child is killed at the grace's end with the session.
func TestRedteam15_HangupTrapsLingeringChildEndsWithTheGrace(t *testing.T) {
	shortLinger(t, 200*time.Millisecond)
	before := runtime.NumGoroutine()
	bash, env := attackHome(t, "echo $$ > \"$HOME/shell.pid\"\n"+
		"trap 'trap \"\" HUP; sh -c \"trap \\\"\\\" HUP TERM; echo \\$\\$ > \\\"$HOME/child.pid\\\"; while :; do sleep 1; done\" & wait' HUP\n"+
		"while :; do sleep 1; done\n")
	if _, ok, _ := askTimed(bash, env); ok {
		t.Fatal("the shell answered")
	}
	deadline := time.Now().Add(shellLinger + 3*time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(env["HOME"], "child.pid")); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	gone(t, env, "child.pid", shellHangupGrace+3*time.Second, before)
	gone(t, env, "shell.pid", time.Second, before)
}

// Attack (target 3), the control of the agent's zsh-history chain: the
// same home with its history as the user has it (a thousand lines).
// Held: zsh answers in time and the write of tools/ls is protected.
func TestRedteam15_UsersZshWithItsHistoryAnswersAndTheEntryIsProtected(t *testing.T) {
	env, ws := r15zshHistoryHomeHeld(t)
	p, _ := Locate(env, []string{ws}).Policy(env)
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c < gate.ClassProtected {
		t.Errorf("THROUGH: a write of tools/ls (tools on the user's zsh PATH) is %v", c)
	}
}

func r15zshHistoryHomeHeld(t *testing.T) (map[string]string, string) {
	t.Helper()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed")
	}
	shortLinger(t, 200*time.Millisecond)
	home, ws := t.TempDir(), t.TempDir()
	rc := "HISTFILE=~/.zsh_history\nHISTSIZE=50000\nSAVEHIST=50000\ntypeset -U path\npath=(\n  tools\n  $path\n)\n"
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".zsh_history"), []byte(strings.Repeat(": 1700000000:0;ls\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}, ws
}
