//go:build linux

package shell

// The nineteenth red team's attacks on the sandbox that HELD (kept as
// regression tests).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Held (was open): a directory shut since the last look is taken as made
// and renamed out of use (protected_tree.go refresh).
// Attack (target a, a shut directory made DURING the process): one
// process (python3: names the gate's reading of the words cannot see)
// makes sub/, writes sub/.nvim.lua (a Named protected file: Neovim runs
// it) and, last, shuts sub: chmod 100 (search only, no read) or 000.
// The scan after the process cannot list sub, so the entry is not seen
// as made and is not renamed out of use; it runs once the user opens sub
// (a permission error invites it), the next refresh taking it as the
// user's (before() drops what it made).
// THROUGH under bubblewrap with 000 (severity medium: a program the
// user's editor runs, planted without a question; it needs the user to
// open the directory; the blind refusal only stops the NEXT writing
// process): sub/.nvim.lua holds PLANTED at its name after the step and
// the user's chmod 755. Held under Landlock (000 and 100) and under
// bubblewrap with 100 (search only: the name is looked at).
// Root cause: agent/shell/protected_tree.go protectedTree.list returns a
// shut directory with no found entries (treeDir.shut), so refresh's made
// has none of what the process put there; agent/shell/sandbox.go places'
// scan does not treat a directory that became shut during the process as
// blind (nothing is renamed out of use and the step is not failed).
func TestRedteam19_ShutDuringTheProcessIsRenamedOutOfUse(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam19_ShutDuringTheProcessIsRenamedOutOfUse") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, mode := range []string{"0o100", "0o000"} {
			t.Run(string(m)+"_"+mode, func(t *testing.T) {
				needTool(t, "python3")
				useMechanism(t, m)
				cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
				cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
				named := cw.path("sub/.nvim.lua")
				t.Cleanup(func() {
					// sub, or the name it was renamed out of use to
					subs, _ := filepath.Glob(cw.path("sub*"))
					for _, p := range subs {
						os.Chmod(p, 0o755)
					}
				})
				res := cw.run(`python3 -c 'import os; os.mkdir("s"+"ub"); open("sub/.nvim"+".lua","w").write("PLANTED\n"); os.chmod("s"+"ub", ` + mode + `)'`)
				os.Chmod(cw.path("sub"), 0o755) // the user opens it (or only searches it: 100)
				if b, err := os.ReadFile(named); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("sub/.nvim.lua planted at its name by a step that shut sub (%s):\n%s", mode, res.Text)
				}
			})
		}
	}
}

// r19open is the user opening dir (mode 755), by its name or by the
// names it was renamed out of use to (a directory a step shut:
// protected_tree.go); the paths it is at now.
func r19open(t *testing.T, dir string) []string {
	t.Helper()
	more, _ := filepath.Glob(dir + ".eukhe-refused-*")
	var at []string
	for _, p := range append(more, dir) {
		if os.Chmod(p, 0o755) == nil {
			at = append(at, p)
		}
	}
	if len(at) == 0 {
		t.Fatalf("%s is nowhere to open", dir)
	}
	return at
}

// r19reopen opens dir again when the test ends (mode 755), and the names
// it was renamed out of use to (dir.eukhe-refused-*, a directory shut by
// a step: protected_tree.go), so the test's temp directory can be removed.
func r19reopen(t *testing.T, dir string) {
	t.Cleanup(func() {
		more, _ := filepath.Glob(dir + ".eukhe-refused-*")
		for _, p := range append(more, dir) {
			os.Chmod(p, 0o755)
		}
	})
}
