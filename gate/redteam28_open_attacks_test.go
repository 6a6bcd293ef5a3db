//go:build open_attacks && linux

package gate

// The twenty-eighth red team's gate attacks that GOT THROUGH (the held
// rows are in redteam28_test.go). Each asserts the safe outcome, so it
// fails while the hole is open. Run with -tags open_attacks.

import (
	"strings"
	"testing"
)

// Attack (target 4, mkdirParents; GOT THROUGH, low): mkdir -p's prefixes
// named as an eukhe directory are judged now, but other commands make
// their operand's parents too: `git init OUT/eukhe/x` and `git clone ROOT
// OUT/eukhe-5/x` make OUT/eukhe and OUT/eukhe-5 (judged
// write+outside+protected, no secret). Root cause: mkdirParents is for
// mkdir only; the name rule (eukheDirOutside) looks at a path's last part.
// Safe outcome: secret.
func TestRedteam28_GitInitMakesAnEukheDirectoryAsAParent(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{"git init OUT/eukhe/x", "git clone ROOT OUT/eukhe-5/x"} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q makes an eukhe directory outside the root and is %v", s, e)
		}
	}
}
