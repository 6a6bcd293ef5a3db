//go:build linux

package shell

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Three ways around the fix of
// TestRedteam32_HookLinkMadeInTheScriptThenItsTargetWritten (after a
// process allowed protected ends, the policy looks again for the links
// in the protected places: Policy.LearnLinks).

// Attack (Policy.LearnLinks; HELD): the hook link is made by a
// background statement, by a link made in the workspace and moved into
// the hooks directory, or by sh -c, each approved (protected); a later
// statement appends to the link's target by its own path. Careful auto
// set (read, write, exec); a script outside the grammar is asked whole,
// its question showing the append. HELD: each process allowed protected makes
// the policy look again once it ended, before the append is opened.
// Safe outcome: the append asks (denied here), or was shown in the
// question approved, or the target stays clean.
func TestRedteam32_HookLinkMadeInTheScriptOtherForms(t *testing.T) {
	for i, form := range []string{
		"ln -s ../../scripts/pc.sh .git/hooks/pre-commit & sleep 1; echo 'echo EVIL' >> scripts/pc.sh; wait",
		"ln -s ../../scripts/pc.sh L && mv L .git/hooks/pre-commit && echo 'echo EVIL' >> scripts/pc.sh",
		"sh -c 'ln -s ../../scripts/pc.sh .git/hooks/pre-commit' && echo 'echo EVIL' >> scripts/pc.sh",
	} {
		for _, m := range []Mechanism{Landlock, Bubblewrap} {
			useMechanism(t, m)
			w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
			w.write(".git/config", "[core]\n")
			must31(t, os.MkdirAll(w.path(".git/hooks"), 0o755))
			w.write("scripts/pc.sh", "#!/bin/sh\necho ok\n")
			w.asker.answers = []gate.Answer{gate.Approve, gate.Deny, gate.Deny}
			res := w.run(form)
			linked := exists(w.path(".git/hooks/pre-commit"))
			shown := false // a question showed the append itself
			for _, q := range w.asker.asked() {
				shown = shown || strings.Contains(q.What, "EVIL")
			}
			if linked && strings.Contains(w.read("scripts/pc.sh"), "EVIL") && !shown {
				t.Errorf("%s %d: the linked hook's target was written unasked; questions %q:\n%s", m, i, r29Asked(w), res.Text)
			}
			if !linked {
				t.Logf("%s %d: no link was made (the form is held before it):\n%s", m, i, res.Text)
			}
		}
	}
}
