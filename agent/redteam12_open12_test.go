//go:build open_attacks && linux

package agent

// The twelfth red team's attacks on the ipython tool that got through (or
// are expected to): each asserts the safe outcome.

import (
	"testing"

	"github.com/eukhe/eukhe/gate/settings"
)

// Attack (the freeze, a process escaping the tree and the session), under
// "shell.confinement": "off" (a user setting): no sandbox, so no PID
// namespace and no re-run adopting orphans. A child of the cell that calls
// setsid() and forks again is init's, in a session of its own:
// kernelProcesses never lists it, and it runs between cells and after the
// kernel is killed. What "off" gives up is the sandbox; the freeze's
// promise (nothing of a kernel runs between cells) is not kept either.
// Class: a process escaping the tree.
func TestRedTeam12_DaemonEscapesFreezeWithConfinementOff(t *testing.T) {
	w := rtSession(t, nil, nil, func(s *settings.Settings) { s.Confinement = "off" }, nil)
	if n, text := r12runsBetweenCells(t, w, true, true); n > 1 {
		t.Logf("ESCAPED: with confinement off a setsid()+double-fork daemon of the cell wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", text)
	}
}
