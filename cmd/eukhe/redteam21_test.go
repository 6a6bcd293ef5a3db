//go:build linux

package main

// The twenty-first red team's attacks through the real binary that HELD
// (the open ones are in redteam21_open_attacks_test.go, build tag
// open_attacks), kept as regression tests.

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// r21victim starts a process of the user's in a session of its own (a
// shell, an editor), outside any step, and gives its pid and a func
// telling whether it still runs.
func r21victim(t *testing.T) (int, func() bool) {
	t.Helper()
	cmd := exec.Command("sleep", "120")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	return cmd.Process.Pid, func() bool {
		select {
		case <-done:
			return false
		default:
			return true
		}
	}
}

// r21holdShells runs, as a bash step of a session confined by mech, the
// entry point eukhe hands its asked shells to at exit — `eukhe
// __hold-shells PID MS` — with the victim's pid, and gives the step's
// reply once the step and the holder's grace are over.
func r21holdShells(t *testing.T, mech string, pid int) string {
	t.Helper()
	w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
	p := startEdgeMCP(t, w, mech)
	script := shellQuote(binary) + " __hold-shells " + strconv.Itoa(pid) + " 0; echo held-exit=$?"
	text, _ := p.call("bash", map[string]any{"script": script})
	time.Sleep(500 * time.Millisecond)
	return text
}

// Attack (target 4, the shells' holder as an entry point): a bash step
// confined by bubblewrap, then by Landlock, runs `eukhe __hold-shells
// PID 0` (LingerMain: letShellGo, then endSession, which SIGHUPs the
// session's members and SIGKILLs the session's group and members by pid
// after the grace) with the pid of a process of the user's outside the
// step, the leader of a session of its own (a terminal's shell, an
// editor with unsaved buffers).
// Held: under bubblewrap the step's processes live in a PID namespace of
// their own (--unshare-pid), where the pid names nothing; under Landlock
// the step is scoped from signalling processes outside its domain
// (RestrictScoped: the signal scope), so the holder's kill is refused.
// The victim runs on, and the step ends after the holder's grace.
func TestRedteam21_AConfinedStepCannotEndAnotherSessionThroughTheShellsHolder(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range []string{"bubblewrap", "landlock"} {
		pid, alive := r21victim(t)
		text := r21holdShells(t, mech, pid)
		if !alive() {
			t.Errorf("%s: the user's process %d (a session of its own) was killed by a step's eukhe __hold-shells:\n%s", mech, pid, text)
		}
		if !strings.Contains(text, "held-exit=") {
			t.Errorf("%s: the step did not end (the holder hung):\n%s", mech, text)
		}
	}
}
