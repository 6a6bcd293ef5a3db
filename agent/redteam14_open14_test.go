//go:build linux && open_attacks

package agent

// The fourteenth red team's attacks through the bash tool that GOT
// THROUGH (run with -tags open_attacks). Each asserts the safe outcome.

import (
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (target 10, bubblewrap): as TestRedteam14_NarrowedJustAfterTheAnswer
// (agent/redteam14_test.go, held there: the first sandbox is slow to
// make, so the watch looks in time).
// The same with the sandbox warm (a first sandboxed step ran: the
// second's sandbox is made in milliseconds) and the narrowing 5 ms after
// the answer: the program plants before the narrowing watch's first look.
// THROUGH (severity low: the user narrowed after approving the step; the
// window is the watch's first look, narrowCheck, 200 ms): the hook is
// planted and the result says the step finished, not that the settings
// changed under it.
// Root cause: run.pipeline reads the auto set once more after the
// questions (the thirteenth red team's fix) and the narrowing watch
// looks first narrowCheck after the start; a narrowing in between is
// seen by neither, and a step that ended before the look is never told.
func TestRedteam14_NarrowedJustAfterTheAnswerWarm(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside, gate.Protected), "auto")
	w.onAsk = func(q gate.Question) gate.Answer { return gate.Approve }
	w.r14bashAll(t, "perl -e 1")
	w.onAsk = func(q gate.Question) gate.Answer {
		go func() {
			time.Sleep(5 * time.Millisecond)
			w.mu.Lock()
			w.set.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside))
			w.mu.Unlock()
		}()
		return gate.Approve
	}
	text := w.r14bashAll(t, r13plant)
	if w.hook() {
		t.Errorf("THROUGH: protected was taken out 5 ms after the answer, and the step planted the hook:\n%s", text)
	}
}

// OPEN (was held by timing only: it failed in a CI rehearsal): the same
// as NarrowedJustAfterTheAnswerWarm at 30 ms. A narrowing after the auto
// set is read again and before the narrowing watch's first look (200 ms
// into the step) is not seen by a step that ends within that time.
// Attack (target 10, bubblewrap): the auto set is {read, write, net,
// outside, protected}; a step's program (perl, exec) is asked and
// approved, and the user narrows the auto set (protected out) just
// AFTER the answer (30 ms later): the auto set was read again after the
// question, before the narrowing, and the sandbox is slow to set up
// here. The program must not plant .git/hooks/pre-commit under the old
// set.
// Held: the narrowing watch stops the step before its program runs
// (the first sandbox of a session is slow to make here).
func TestRedteam14_NarrowedJustAfterTheAnswer(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside, gate.Protected), "auto")
	w.onAsk = func(q gate.Question) gate.Answer {
		go func() {
			time.Sleep(30 * time.Millisecond)
			w.mu.Lock()
			w.set.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside))
			w.mu.Unlock()
		}()
		return gate.Approve
	}
	text := w.r14bashAll(t, r13plant)
	if w.hook() {
		t.Errorf("THROUGH: protected was taken out 30 ms after the answer, and the step planted the hook:\n%s", text)
	}
}
