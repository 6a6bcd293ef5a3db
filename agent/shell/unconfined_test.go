package shell

import (
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Where programs run unconfined (shell.confinement "off" here; no sandbox
// on Windows), a step that runs a program asks for what such a program
// can do — write, outside, protected, net — beside exec: under an auto set
// of read and exec it is asked about (and refused here), where a sandbox
// would have held it to the workspace unasked. A step that runs no
// program, and every step under an auto set holding all of it, runs as
// before.
func TestAnUnconfinedProgramAsksForWhatItCanDo(t *testing.T) {
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Exec)))
	w.runner.Confine.Mode = func() string { return "off" }
	w.asker.answers = []gate.Answer{gate.Deny}
	res := w.run("sh -c 'echo planted > .git-hook'")
	if res.Ending != Refused || exists(w.path(".git-hook")) {
		t.Fatalf("an unconfined program ran under {read, exec} unasked: %s", res.Text)
	}
	q := w.asker.asked()
	if len(q) != 1 || !q[0].Effects.Has(gate.Protected) || !q[0].Effects.Has(gate.Outside) || !q[0].Effects.Has(gate.Net) || q[0].Effects.Has(gate.Secret) {
		t.Fatalf("the question: %+v", q)
	}
	// no program: as before
	w.write("a.txt", "one\n")
	if res := w.run("echo hi; cd ."); res.Ending != Finished || len(w.asker.asked()) != 1 {
		t.Fatalf("a step without a program: %s (asked %d)", res.Text, len(w.asker.asked()))
	}
	// the same program, confined by a sandbox where one works, asks
	// nothing: its sandbox holds it to {read, exec}
	if Detect().Mechanism != Unconfined {
		w.runner.Confine.Mode = func() string { return "auto" }
		if res := w.run("sh -c 'echo ok'"); res.Ending != Finished || len(w.asker.asked()) != 1 || !strings.Contains(res.Text, "ok") {
			t.Fatalf("a confined program: %s (asked %d)", res.Text, len(w.asker.asked()))
		}
	}
	// an auto set that holds all of it runs it unasked
	all := gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected))
	w.runner.Gate.Auto = func() gate.AutoSet { return all }
	w.runner.Confine.Mode = func() string { return "off" }
	if res := w.run("sh -c 'echo ok'"); res.Ending != Finished || len(w.asker.asked()) != 1 {
		t.Fatalf("under the default auto set: %s (asked %d)", res.Text, len(w.asker.asked()))
	}
}
