//go:build linux

package settings

// The fifteenth red team's attacks on the startup-file scan of a login
// shell that did not answer that HELD (the open ones are in
// redteam15_open_attacks_test.go, build tag open_attacks).

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
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
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
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
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
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

// Held (was open): an unanswered shell makes the PATH unknown (gate.Places.PathUnknown): a file named like a command is protected in every directory (gate isCommandName), the roots' other entries are not
// Attack (target 3), a chain the agent drives: ~/.zsh_history is a
// place a step writes unasked (gate.HomeWritable: history is data), and
// zsh reads its whole history before its first prompt (about 1.5 s a
// million lines here). The agent appends twelve million lines (half a
// gigabyte) to it (a write outside the workspace, no question with
// outside in the auto set); the next session's ask of the
// user's zsh is past shellPathWait, so its PATH comes from the scan,
// which misses the relative entry the zshrc adds (a path array written
// over several lines); the agent then writes tools/ls in the workspace
// unasked, and the user's next ls in a terminal there runs it. (The
// control row, with the history as it was, finds the entry.)
// THROUGH (severity high: every step of the chain is unasked with
// protected out of the auto set, and the user's shell runs the plant):
// the write of tools/ls is Inside. (With six million lines one zsh of
// the two asked sometimes answered in time here: the row's margin is
// the machine's speed.)
// Root cause: an unanswered shell falls back to a text scan that is an
// approximation (every miss of the scan becomes a plantable entry), and
// the agent can choose when the fallback is used, since what makes the
// shell slow (its history) is unprotected. At the root: an unanswered
// shell must mean "unknown relative entries" — protect every command
// name anywhere in the workspace (EndRule with no ending, as "." is), or
// refuse unasked writes of executables into the workspace until the
// shell answers (ask it again in the background, longer) — not a
// best-effort guess.
func TestRedteam15_AgentSlowsTheUsersZshPastTheWaitAndCannotPlant(t *testing.T) {
	env, ws := r15zshHistoryHome(t, 12000000)
	p, _ := Locate(env, []string{ws}).Policy(env)
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(env["HOME"], ".zsh_history"))); c >= gate.ClassProtected {
		t.Fatalf("control: ~/.zsh_history writes as %v: the agent's flood would be asked", c)
	}
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c < gate.ClassProtected {
		t.Errorf("THROUGH: after the agent's flood of the zsh history, a write of tools/ls (tools on the user's zsh PATH) is %v", c)
	}
}

// Held (was open): as the row above: the ZDOTDIR the scan does not read costs its entry, but a file named like a command is protected in every directory
// Attack (target 3), end to end with a real zsh: the user's zsh keeps
// its files in ~/.config/zsh (ZDOTDIR set in ~/.zshenv the XDG way) and
// is slower than the wait; its zshrc puts the relative entry tools
// first on PATH. The policy eukhe makes for a session in a workspace
// judges a write of tools/ls there.
// THROUGH (severity medium: with protected out of the auto set, the
// agent writes tools/ls unasked; the user's next ls in a terminal in
// the workspace runs it): the write is a plain workspace write.
// Root cause: as TestRedteam15_ScanMissesZdotdirSpelledTheXDGWay
// (zdotdirOf does not put in the file's variables or a default).
func TestRedteam15_SlowZshInXDGZdotdirLeavesNoCommandUnprotected(t *testing.T) {
	env, ws := r15zshHome(t, "export ZDOTDIR=\"${XDG_CONFIG_HOME:-$HOME/.config}/zsh\"\n", ".config/zsh/.zshrc")
	if c := r15toolsWrite(env, ws); c < gate.ClassProtected {
		t.Errorf("THROUGH: a write of tools/ls (tools on the slow zsh's PATH) is %v", c)
	}
}

// r15zshHome is a home whose zsh is slower than the wait (its zshrc
// sleeps first) and then adds tools to PATH; zshenv and zshrc are its
// files (relative to the home), and a workspace to judge a write in.
func r15zshHome(t *testing.T, zshenv, zshrcAt string) (env map[string]string, ws string) {
	t.Helper()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
	}
	shortLinger(t, 200*time.Millisecond)
	home, ws := t.TempDir(), t.TempDir()
	files := map[string]string{zshrcAt: "sleep 30\npath=(tools $path)\n"}
	if zshenv != "" {
		files[".zshenv"] = zshenv
	}
	for rel, text := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}, ws
}

// r15toolsWrite is how the policy of env's settings paths judges a
// write of a program into the workspace's tools directory.
func r15toolsWrite(env map[string]string, ws string) gate.Class {
	p, _ := Locate(env, []string{ws}).Policy(env)
	return p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls")))
}

// r15zshHistoryHome is a home whose ~/.zshrc keeps its history in
// ~/.zsh_history and puts the relative entry tools first on PATH with a
// path array written over several lines (missed by the scan:
// TestRedteam15_ScanMissesOtherSpellingsOfAnEntry), with a workspace;
// lines is how many lines ~/.zsh_history holds.
func r15zshHistoryHome(t *testing.T, lines int) (env map[string]string, ws string) {
	t.Helper()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
	}
	shortLinger(t, 200*time.Millisecond)
	home, ws := t.TempDir(), t.TempDir()
	rc := "HISTFILE=~/.zsh_history\nHISTSIZE=50000\nSAVEHIST=50000\ntypeset -U path\npath=(\n  tools\n  $path\n)\n"
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(home, ".zsh_history"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := 0; i < lines; i++ {
		fmt.Fprintf(w, ": 1700000000:0;ls -la /some/path/%d\n", i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}, ws
}
