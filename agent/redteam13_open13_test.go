//go:build open_attacks && linux

package agent

// The thirteenth red team's attacks that got through (build tag
// open_attacks): each test asserts the safe outcome and fails today.

import (
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// Attack (target 3; severity medium): under shell.confinement "off" a
// step's program double-forks out of its session (setsid, then a second
// fork) and keeps a grandchild running. The user turns confinement back
// on ("auto") while the step runs: eukhe stops the step and says "the
// script and every process it started were stopped", but the grandchild
// goes on writing in the workspace, unconfined, with every effect, after
// the narrowing (bubblewrap's pid namespace kills such a grandchild; with
// no sandbox nothing does).
// Root cause (guess): a narrowing kills the process groups the runner
// recorded (killGroups/pruneGroups in exec_unix.go): one per started
// program, its own session; a process that calls setsid leaves that
// group, and nothing else (a cgroup, a subreaper, a walk of /proc for
// the step's descendants as the ipython freeze does) finds it.
func TestRedteam13Open_UnconfinedDaemonSurvivesNarrowing(t *testing.T) {
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	w := r13session(t, all, "off")
	t.Cleanup(func() { time.Sleep(2 * time.Second) }) // the daemon ends 3 s in; then the workspace goes
	r, n1, n2 := r13narrowDuring(t, w, r13daemon, func(s *settings.Settings) { s.Confinement = "auto" })
	if n2 > n1 {
		t.Errorf("ESCAPED: the daemon kept running unconfined after confinement was turned on (ticks %d then %d):\n%s", n1, n2, r.Text())
	}
}
