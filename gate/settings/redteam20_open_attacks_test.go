//go:build open_attacks && linux

package settings

// The twentieth red team's attacks on the user's PATH that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target 3, PathUnknown: every command-named file protected
// anywhere): the user's zsh is slower than the wait (the agent can make
// it so: the fifteenth red team's history flood), and its zshrc puts the
// relative entry tools first (named by a command, which the scan cannot read either) and a directory named at run time by a
// command's output (as eval "$(brew shellenv)", pyenv init or mise
// activate do) after it; that directory holds r20brewcmd, a command the
// user has nowhere else. The agent writes tools/r20brewcmd.
// THROUGH (severity medium: with protected out of the auto set the
// write is unasked, and the user's next r20brewcmd in a terminal in the
// workspace runs the plant; the directories made at run time are the
// common ones: Homebrew on Linux, pyenv's shims, mise): the write is a
// plain workspace write (the control, tools/ls, is protected).
// Root cause: gate/policy.go isCommandName lists the commands of the
// known absolute PATH directories only (the env's and the scan's);
// with the PATH unknown the directories a shell makes at run time are
// exactly the ones not known, so their commands are no command names
// (gate/settings/shellpath.go askShellsPathDirs keeps the scan's guess
// and the flag, nothing of what the scan could not read).
// Since: the directories the common hooks add (Homebrew's, the version
// managers' shims: gate/places.go toolDirs) are listed when the PATH is
// unknown (gate's TestRedteam20_UnknownPathKnowsAToolHooksCommands); a
// directory named only by another command's output, as here, is not.
func TestRedteam20_SlowZshHidesTheCommandsOfADirectoryMadeAtRunTime(t *testing.T) {
	env, ws := r15zshHome(t, "", ".zshrc")
	brew := filepath.Join(t.TempDir(), "brew", "bin")
	if err := os.MkdirAll(brew, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(brew, "r20brewcmd"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := env["HOME"]
	if err := os.WriteFile(filepath.Join(home, ".brewdir"), []byte(brew+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte("sleep 30\npath=($(echo t\"\"ools) $(cat $HOME/.brewdir) $path)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := Locate(env, []string{ws}).Policy(env)
	if !p.PathUnknown() {
		t.Fatal("control: the PATH is known: the row proves nothing")
	}
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c != gate.ClassProtected {
		t.Fatalf("control: a write of tools/ls is %v", c)
	}
	if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "r20brewcmd"))); c != gate.ClassProtected {
		t.Errorf("a write of tools/r20brewcmd (a command of the directory the slow zsh adds at run time) is %v, want protected", c)
	}
}
