//go:build open_attacks && linux

package shell

// The thirty-third red team's attacks on the shell runner that got
// through when it ran: each asserts the safe outcome, so it FAILS while
// the hole is open (go test -tags open_attacks). Helpers:
// redteam33_held_linux_test.go.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (statReal's by-name fallback, open_real_linux.go; OPEN,
// medium): a background program flips a workspace link L between a loop
// (L → L) and ~/.ssh; [[ -e ]], [[ -r ]] and [[ -s ]] of L/id_ed25519
// in a loop, every question denied. Root cause: a looped path (rp.Looped) is judged as no secret
// and then stat'ed by its name (statReal's os.Stat(name), accessReal's
// access of name, following L as it is then), so a flip between judgement and stat lands on the key: the
// thirty-first red team's race, held for a flip between two real
// places, is open through a loop. Safe outcome: no test succeeds
// (HITS=0). Suggested fix: answer a looped path ELOOP (it is one at
// judgement), never stat it by name; likewise the /proc and /dev
// branches should stat the real path judged with RESOLVE_NO_SYMLINKS.
func TestRedteam33_LoopedLinkRaceTellsAKeyExists(t *testing.T) {
	useMechanism(t, Bubblewrap)
	for attempt := 0; attempt < 3; attempt++ {
		w := r33World(t, Bubblewrap, gate.DefaultAuto())
		r33Deny(w)
		half := strings.TrimSuffix(w.secret, "sh")
		flip := "sh -c 'end=$(($(date +%s)+6)); while [ $(date +%s) -lt $end ]; do ln -sfn L L; ln -sfn \"$0$1\" L; done' " + half + " sh &"
		res := w.run(flip + "\nsleep 0.2\ne=0 r=0 s=0\nfor i in $(seq 1 8000); do\n" +
			"[[ -e L/id_ed25519 ]] && e=$((e+1)); [[ -r L/id_ed25519 ]] && r=$((r+1)); [[ -s L/id_ed25519 ]] && s=$((s+1))\n" +
			"done; echo HITS=$((e+r+s)) e=$e r=$r s=$s; wait")
		if !regexp.MustCompile(`HITS=[0-9]`).MatchString(res.Text) {
			t.Fatalf("control: the loop did not run:\n%s", res.Text)
		}
		if !strings.Contains(res.Text, "HITS=0 ") {
			t.Fatalf("THROUGH: [[ -e ]] told the key is there through a looped link:\n%s", res.Text)
		}
	}
}

// Attack (the end of a script's processes, unconfined; OPEN, medium):
// with no sandbox (EUKHE_CONFINEMENT=none, "shell.confinement": "off",
// or a Linux with neither bubblewrap nor Landlock), `setsid -f sleep`
// leaves a process in a session of its own whose parent exited. Root
// cause: killKernel finds orphans below a subreaper, and only the
// Landlock supervisor and bubblewrap's init are one; unconfined, the
// orphan goes to init, and no group or session the script started holds
// it. Safe outcome: no process with the marker is alive two seconds
// after the run. Suggested fix: make eukhe (or a tiny supervisor
// process started for unconfined programs too) a child subreaper
// (PR_SET_CHILD_SUBREAPER), so the end finds every orphan below it.
func TestRedteam33_UnconfinedSetsidProgramOutlivesItsScript(t *testing.T) {
	useMechanism(t, Unconfined)
	w := newWorld(t, gate.DefaultAuto())
	mark := r33Mark()
	res := w.run("setsid -f sleep 60 " + mark + "; echo started")
	time.Sleep(2 * time.Second)
	if pids := r33Marked(mark); len(pids) > 0 {
		t.Errorf("THROUGH: processes %v outlived the script:\n%s", pids, res.Text)
	}
}

// Attack (false positive, Landlock without protected; OPEN, medium): the
// careful preset (read, write) under Landlock — bubblewrap fails on
// hosts that restrict unprivileged user namespaces (Ubuntu 24.04's
// AppArmor) — runs `touch plain.txt; mkdir d` at the root of a
// repository. Both fail with Permission denied, and the note tells the
// agent to ask for net+outside+protected+secret. Root cause: Landlock
// cannot grant the root writable and .git read-only (a rule covers what
// is below it), so the root's own entries get rules and the root itself
// none: no new entry can be made there. The default auto set meets it
// too in a dotfiles workspace, where ~/.ssh/config links to a file of
// the workspace (a secret entry there, which no rule may cover). Safe
// outcome: plain.txt and d are made. Suggested fix: grant make rights on the root itself and
// keep .git's entries read-only by rules of their own, renaming a new
// protected name out of use after the program (the look bubblewrap
// already relies on); say so in guide/security.md until then, and name
// only grantable effects in the note.
func TestRedteam33_LandlockCarefulPresetCannotMakeAFileAtTheRoot(t *testing.T) {
	t.Run("careful", func(t *testing.T) {
		w := r33World(t, Landlock, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		res := w.run("touch plain.txt; mkdir d")
		if !exists(w.path("plain.txt")) || !exists(w.path("d")) {
			t.Errorf("THROUGH (false positive): an auto-set write at the workspace root failed:\n%s", res.Text)
		}
	})
	t.Run("default, a dotfiles workspace", func(t *testing.T) {
		// ~/.ssh/config links into the workspace: a secret entry there
		w := r33World(t, Landlock, gate.DefaultAuto())
		r33Must(t, os.MkdirAll(w.path("ssh"), 0o755))
		r33Must(t, os.WriteFile(w.path("ssh/config"), []byte("Host work\n"), 0o644))
		r33Must(t, os.Symlink(w.path("ssh/config"), filepath.Join(w.secret, "config")))
		r33Repolicy(w)
		res := w.run("touch plain.txt; mkdir d")
		if !exists(w.path("plain.txt")) || !exists(w.path("d")) {
			t.Errorf("THROUGH (false positive): an auto-set write at the workspace root failed:\n%s", res.Text)
		}
	})
}
