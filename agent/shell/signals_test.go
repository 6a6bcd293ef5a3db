//go:build linux

package shell

import (
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// A step's program gets the hangup and the interrupt at their defaults
// under every mechanism: Landlock's supervisor ignored them before it
// started the program, and an ignored signal stays ignored across exec,
// so the program could not be interrupted (timeout -s INT, a hangup).
func TestStepProgramsCanBeInterrupted(t *testing.T) {
	for _, m := range []Mechanism{Unconfined, Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
			res := cw.run(`sh -c 'kill -INT $$; echo SURV""IVED INT'; sh -c 'kill -HUP $$; echo SURV""IVED HUP'`)
			if strings.Contains(res.Text, "SURVIVED") {
				t.Errorf("a step's program ignores a signal a terminal would end it with:\n%s", res.Text)
			}
		})
	}
}

// The same with eukhe started ignoring them (under nohup, or by a client
// that ignores them): the ignoring was passed on to every step.
func TestStepProgramsCanBeInterruptedUnderNohup(t *testing.T) {
	if testkit.StartedIgnoringHangup() {
		t.Skip("the steps under nohup are the test's second process")
	}
	testkit.RunIgnoringHangup(t, "^TestStepProgramsCanBeInterrupted$")
}
