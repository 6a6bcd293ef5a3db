package gate

// The twenty-ninth red team's gate attacks that were HELD (those that got
// through: redteam29_open_attacks_test.go).

import (
	"strings"
	"testing"
)

// Attack (target 4, into.go read as getopt; HELD): -T spelled where
// getopt does not read it as -T — an operand after "--", the value of a
// separate -S / --suffix / --context, -S in a cluster (-rS .T) — and -t
// in a cluster with its value attached (-rtOUT) or as a separate
// --target-directory word after the operand. Each still derives
// OUT/eukhe-4242 and is secret.
func TestRedteam29_GetoptCornersOfTheTargetOptions(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{
		"cp -r -- eukhe-4242 -T OUT/", "cp -r eukhe-4242 -- -T OUT/", "cp -r --suffix -T eukhe-4242 OUT/",
		"cp -r -S -T eukhe-4242 OUT/", "cp -rS .T eukhe-4242 OUT/", "cp --context=-T -r eukhe-4242 OUT/",
		"ln -s ROOT/eukhe-4242 --suffix -T OUT/", "cp -rtOUT eukhe-4242", "cp -r eukhe-4242 --target-directory OUT",
		"mv --target-directory OUT eukhe-4242",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q makes OUT/eukhe-4242 and is %v, not secret", s, e)
		}
	}
}

// Attack (target 4, into.go -T read as getopt; GOT THROUGH, medium):
// with POSIXLY_CORRECT set, GNU getopt stops at the first operand, so in
// `POSIXLY_CORRECT=1 cp -r eukhe-4242 -T OUT/` the -T is a source operand
// (a missing file: cp says so and copies the rest), and cp makes
// OUT/eukhe-4242 (checked with GNU coreutils). The gate reads -T as given
// (argv.given permutes as GNU does without POSIXLY_CORRECT), derives no
// name, and judges write+exec+outside: unasked by default. The same with
// mv and ln. Root cause: optSpec.read ignores POSIXLY_CORRECT (from the
// step's assignment or the environment); intoPaths trusts -T. Safe
// outcome: secret.
// HELD now: -T is not read at all (into.go): the names a copy makes in its
// last operand are judged with it too.
func TestRedteam29_PosixlyCorrectMakesTAnOperand(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{
		"POSIXLY_CORRECT=1 cp -r eukhe-4242 -T OUT/", "export POSIXLY_CORRECT=1; mv eukhe-4242 -T OUT/",
		"POSIXLY_CORRECT=1 ln -s ROOT/eukhe-4242 -T OUT/",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("%q makes OUT/eukhe-4242 and is %v, not secret", s, e)
		}
	}
}
