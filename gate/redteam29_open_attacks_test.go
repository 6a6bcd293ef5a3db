//go:build open_attacks && linux

package gate

// The twenty-ninth red team's gate rows that still GET THROUGH: each
// asserts the safe outcome, so it fails while the hole is open.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 4, intoPaths with -T / DIR/.; GOT THROUGH, medium, a
// spelling of the twenty-seventh's open row on a tree carried whole):
// `cp -rT y OUT/run` and `cp -r y/. OUT/run` copy y's contents into
// OUT/run, so y/eukhe becomes OUT/run/eukhe (another eukhe's socket
// directory with XDG_RUNTIME_DIR=OUT/run); -T makes intoPaths derive
// nothing, and y/. derives OUT/run itself. Judged write+outside. Root
// cause: only the operand's base name is derived, never the names below
// a source a recursive copy merges. Safe outcome: secret.
func TestRedteam29_CopyOfADirectorysContentsMakesAnEukheDirectory(t *testing.T) {
	p, home, root, out := r28Out(t)
	must(t, os.MkdirAll(filepath.Join(root, "y", "eukhe"), 0o755))
	for _, s := range []string{"cp -rT y OUT/run", "cp -r y/. OUT/run", "cp -r --no-target-directory y OUT/run"} {
		script := strings.ReplaceAll(s, "OUT", out)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("%q makes OUT/run/eukhe and is %v, not secret", s, e)
		}
	}
}
