//go:build open_attacks && linux

package settings

// The seventeenth red team's attacks on the unknown PATH (a login shell
// that did not say its PATH in time: gate.Places.PathUnknown) that GOT
// THROUGH. Each asserts the safe outcome, so it fails while the hole is
// open. Run with -tags open_attacks.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (target 1b): the unknown PATH protects only the names of the
// commands in the PATH directories eukhe knows (its own PATH and the
// scan's). The user's ~/.bashrc (slower than the wait) adds an absolute
// directory the scan cannot read (a list in a file, read by a loop:
// ~/opt/mytool/bin, a tool the user types) and the relative entry
// tools. The agent writes tools/mytool.
// THROUGH (severity medium: with protected out of the auto set the
// write is unasked; the user's next mytool in a terminal in the
// workspace runs the plant): the write is Inside (the control, tools/ls,
// is protected).
// Root cause: gate/policy.go Policy.isCommandName lists the known
// absolute pathDirs only, while "unknown" means absolute directories may
// be missing as well as relative ones (gate/settings/shellpath.go
// askShellsPathDirs: the scan's dirs are a guess for both).
func TestRedteam17_UnknownPathMissesTheCommandsOfAMissedAbsoluteDirectory(t *testing.T) {
	shortLinger(t, 200*time.Millisecond)
	env, ws := r17bashHome(t, "sleep 30\nfor d in $(cat \"$HOME/.paths\"); do PATH=\"$d:$PATH\"; done\nPATH=\"$(printf tools):$PATH\"\n")
	bin := filepath.Join(env["HOME"], "opt", "mytool", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "r17mytool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env["HOME"], ".paths"), []byte(bin+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := Locate(env, []string{ws}).Policy(env)
	if !p.PathUnknown() {
		t.Fatal("control: the slow shell's PATH is known")
	}
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c < gate.ClassProtected {
		t.Fatalf("control: a write of tools/ls is %v", c)
	}
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "r17mytool"))); c < gate.ClassProtected {
		t.Errorf("THROUGH: a write of tools/r17mytool (a command of a PATH directory the scan missed) is %v", c)
	}
}

// Attack (target 1b, a shell that answers in time): the user's zsh
// defers part of its startup until it is at its prompt (zinit's turbo
// mode, zsh-defer, here zsh's own sched +1), and the deferred part adds
// the relative entry tools to PATH. The ask types its command at the
// first prompt and has the answer well within the wait, before the
// deferred part runs: PATH known, without tools (PathUnknown false, so
// no command name is protected anywhere either). In the user's
// terminal, the prompt has tools on PATH a second later.
// THROUGH (severity medium: deferred plugin loading is a common zsh
// setup; with protected out of the auto set the agent writes tools/ls
// unasked, and the user's next ls in the workspace runs it): the write
// is Inside. (A precmd hook, sched +0 and zle-line-init are seen.)
// Root cause: gate/settings/shellpath_linux.go askShellPath takes the
// PATH the shell has at its first prompt as the PATH, where the shell's
// startup may still be running (sched, zle -F, TRAPALRM with TMOUT):
// an answer before the startup's deferred work is an approximation the
// policy treats as known.
func TestRedteam17_ZshsDeferredStartupAddsAnEntryAfterTheAnswer(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
	}
	shortLinger(t, 200*time.Millisecond)
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte("zmodload zsh/sched\nsched +1 'path=(tools $path)'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}
	if c := r17write(env, ws, "ls"); c < gate.ClassProtected {
		t.Errorf("THROUGH: a write of tools/ls (tools on the zsh's PATH a second after its prompt) is %v", c)
	}
}
