//go:build open_attacks && linux

package shell

// The twenty-ninth red team's rows that still GET THROUGH: each asserts
// the safe outcome, so it fails while the hole is open. Run with -tags
// open_attacks.

import (
	"os"
	"strings"
	"testing"
)

// Attack (target 1, process substitution; GOT THROUGH, medium, by
// approval): every process substitution is judged as /dev/fd/63, a
// secret place (eukhe's own /proc/self), so `diff <(sort a) <(sort b)`
// asks "read+exec+secret" with no file of a credential store named; the
// user, who must approve that to diff at all, approves. The script is
// outside the step grammar, one step run whole, and its approval of
// secret covers a write to ~/.ssh/authorized_keys through a link the
// script planted (the question's paths name neither the store nor the
// file) — or the same through the run's private FIFO directory, whose
// name `echo <(true)` prints. Root cause: the false secret of /dev/fd/63
// makes secret approvals routine, and a script outside the grammar
// approved for one secret may touch every secret. Safe outcome: the key
// is not appended unless a question named the store.
// Form a HOLDS now: a process substitution stands as a stream's alias in
// the gate (gate/expand.go), so `diff <(…) <(…)` asks nothing about
// secret, and the run's FIFO directory is read-only to every process of
// the run (sandbox.go: Keep and Frozen). Form b still gets through: the
// word $d/… is made by a command substitution the gate cannot read, so
// the script is judged secret, unnamed; the user who approves that lifts
// the directory's protection too.
func TestRedteam29_ProcessSubstitutionsSecretApprovalCoversTheStore(t *testing.T) {
	for i, form := range []string{
		"diff <(echo a) <(echo a); PLANT L; echo AGENT >> L",
		"p=$(echo <(true)); d=${p%/*}; PLANT $d/sh-interp-x; echo AGENT >> $d/sh-interp-x",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			keys := r29Keys(t, w)
			res := w.run(strings.ReplaceAll(form, "PLANT", r29Plant(w, "authorized_keys", "")))
			for _, q := range w.asker.asked() {
				if strings.Contains(strings.Join(q.Reals, " "), w.secret) || strings.Contains(q.What, w.secret) {
					return
				}
			}
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
				t.Fatalf("%s: the key was appended; the only questions: %q\n%s", form, r29Asked(w), res.Text)
			}
		})
	}
}
