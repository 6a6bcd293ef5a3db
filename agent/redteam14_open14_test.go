//go:build linux && open_attacks

package agent

// The fourteenth red team's attacks through the bash tool that GOT
// THROUGH (run with -tags open_attacks). Each asserts the safe outcome.

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target 9, sandboxed (bubblewrap or Landlock), auto set {read,
// write, exec, outside}): another name (a hard link) of
// ~/.aws/credentials outside the workspace roots (a dotfiles directory
// beside the project, a copy kept under /tmp by a backup tool): a
// program the gate cannot see into (perl, its path reversed) reads it.
func TestRedteam14_SecretOtherNameOutsideTheRoots(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w, _ := r14secretWorld(t, gate.Of(gate.Read, gate.Write, gate.Exec), "dotfiles/aws-creds")
		other := filepath.Join(w.home, "dotfiles", "aws-creds")
		start := time.Now()
		r := w.bash(t, "perl -e 'open F, scalar reverse($ARGV[0]) or die; print <F>' '"+r13rev(other)+"'")
		t.Logf("%d asked, %v:\n%s", len(w.asked()), time.Since(start), r.Text())
		if strings.Contains(r.Text(), r14canary) {
			t.Errorf("THROUGH: the secret's other name outside the roots was read in the sandbox:\n%s", r.Text())
		}
	})
}
