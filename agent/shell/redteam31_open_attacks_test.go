//go:build open_attacks && linux

package shell

// The thirty-first red team's attacks that GOT THROUGH (each asserts the
// safe outcome, so it fails while the hole is open). The held ones are
// in redteam31_held_linux_test.go, with the helpers both files use.

import (
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (false positive: a test keyword or a loop under the careful
// preset; GOT THROUGH, low: documented, but it breaks everyday scripts):
// auto set read, write. `[[ -f go.mod ]] && cat go.mod`, `for f in
// *.md; do wc -l "$f"; done` and `if [[ -s README.md ]]; then cat
// README.md; fi` read only, yet each asks about exec: a [[ ]], a for or
// an if puts the whole script outside the step grammar, one step judged
// exec with every effect of its commands. `[ -f go.mod ] && cat go.mod`
// runs unasked. Root cause: the step grammar (gate: Script.Grammar)
// holds simple commands joined by pipes, && and || only; the runtime
// re-check (call, open, readDir, stat) already judges each command of a
// compound as it runs. Safe outcome: no question for a read-only
// script. Suggested fix: take [[ ]] (its words judged as a read of the
// paths its file tests name) into the grammar, and judge a for or if
// whose every command is in the grammar by the union of its commands
// instead of exec.
func TestRedteam31_TestKeywordAndLoopAskExecUnderCarefulPreset(t *testing.T) {
	for _, s := range []string{
		"[[ -f go.mod ]] && cat go.mod", "for f in *.md; do wc -l \"$f\"; done", "if [[ -s README.md ]]; then cat README.md; fi",
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.write("go.mod", "module x\n")
		w.write("README.md", "hello\n")
		res := w.run(s)
		if len(w.asker.asked()) > 0 {
			t.Errorf("%s: questions %q:\n%s", s, r29Asked(w), res.Text)
		}
	}
}
