//go:build open_attacks && linux

package shell

// The eighteenth red team's attacks on the sandbox that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target a, blind walks): the project's sub/.nvim.lua (a Named
// protected file: Neovim runs it) has another name in the workspace,
// notes.txt (a hard link, the user's). Step 1 shuts sub (chmod 000: a
// plain workspace directory, so the step may). Step 2 appends to
// notes.txt with a name the gate's reading of the words cannot see
// (python3), and leaves sub shut. The user later opens sub (chmod 755,
// after a permission error), and one more step runs.
// THROUGH (severity medium: a program the user's editor runs, planted
// without a question; it needs the user to open the directory the agent
// shut, which a permission error invites; the blind rule the fix made
// does not fire): step 2 is not refused, under Landlock and bubblewrap
// alike, and sub/.nvim.lua holds PLANTED at its name after the user's
// chmod and the next step (when step 2 opens sub itself the made-entry
// look takes .nvim.lua out of use: that variant held).
// Root cause: the protected tops of a Named rule below the shut
// directory are dropped as missing (gate/links.go protectedTops' add:
// p.fs.Kind of a path below a directory without search is KindMissing;
// the sandbox's list of protected entries likewise), and
// gate/linkwalk_unix.go walkLinks returns complete, not blind, for a top
// whose Lstat fails with EACCES; with no file of a protected place
// having other names, LinkCache.SearchFrom walks no root (missing == 0)
// and never meets sub: the strangers look's blindness only makes it walk
// the (empty) tops. The sandbox's look of made entries cannot see into
// sub before or after the step either.
func TestRedteam18_ShutDirectoryHidesANamedFilesOtherName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_ShutDirectoryHidesANamedFilesOtherName") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			needTool(t, "python3")
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
			cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
			cw.write("sub/.nvim.lua", "-- the project's\n")
			named := cw.path("sub/.nvim.lua")
			if err := os.Link(named, cw.path("notes.txt")); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(cw.path("sub"), 0o755) })
			res0 := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("CONTROL\n")'`)
			if b, _ := os.ReadFile(named); strings.Contains(string(b), "CONTROL") {
				t.Fatalf("control: sub/.nvim.lua written through notes.txt with sub open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 sub")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'`)
			if err := os.Chmod(cw.path("sub"), 0o755); err != nil { // the user's
				t.Fatal(err)
			}
			res3 := cw.run("true")
			if b, _ := os.ReadFile(named); strings.Contains(string(b), "PLANTED") {
				t.Errorf("sub/.nvim.lua was written through its other name while sub was shut:\n%s\n%s\n%s\n%s", res0.Text, res1.Text, res.Text, res3.Text)
			}
		})
	}
}
