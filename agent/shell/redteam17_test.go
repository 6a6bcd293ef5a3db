//go:build linux

package shell

// The seventeenth red team's attacks on the sandbox that HELD (the open
// ones are in redteam17_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target 2, the strangers look): a hard link made after the look.
// The look at the roots finds no stranger, so the home's configuration
// is not walked for the process; the process itself then links
// ~/.bashrc into the workspace (os.link) and appends to the new name,
// which no search met.
// Held: under Landlock and bubblewrap alike the link fails
// (EXDEV: Landlock's refer right, bubblewrap's read-only bind of the
// home), and ~/.bashrc is unchanged.
func TestRedteam17_LinkMadeAfterTheLookCannotReachTheHomesBashrc(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
			w.runner.blind = func(gate.Effects) gate.Effects { return gate.Of(gate.Read, gate.Write) }
			home := filepath.Dir(w.secret)
			w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home}.Policy(gate.OS)
			rc := filepath.Join(home, ".bashrc")
			if err := os.WriteFile(rc, []byte("# the user's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := w.run(`python3 -c 'import os; os.link("` + rc + `", "x"); open("x", "a").write("PLANTED\n")'`)
			if b, _ := os.ReadFile(rc); strings.Contains(string(b), "PLANTED") {
				t.Errorf("~/.bashrc written through a link the step made:\n%s", res.Text)
			}
		})
	}
}
