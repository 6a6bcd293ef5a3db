//go:build open_attacks && linux

package shell

// The nineteenth red team's attacks on the sandbox that got THROUGH
// (build tag open_attacks).

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

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
func TestRedteam19_ShutDuringTheProcessHidesTheMadeNamedFile(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam19_ShutDuringTheProcessHidesTheMadeNamedFile") {
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
				t.Cleanup(func() { os.Chmod(cw.path("sub"), 0o755) })
				res := cw.run(`python3 -c 'import os; os.mkdir("s"+"ub"); open("sub/.nvim"+".lua","w").write("PLANTED\n"); os.chmod("s"+"ub", ` + mode + `)'`)
				os.Chmod(cw.path("sub"), 0o755) // the user opens it (or only searches it: 100)
				if b, err := os.ReadFile(named); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("sub/.nvim.lua planted at its name by a step that shut sub (%s):\n%s", mode, res.Text)
				}
			})
		}
	}
}
