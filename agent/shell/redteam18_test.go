//go:build linux

package shell

// The eighteenth red team's attacks on the sandbox that HELD (the open
// ones are in redteam18_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target a, blind walks): .git/hooks/pre-commit has another name
// in the workspace, notes.txt (a hard link). Step 1 shuts .git (chmod
// 000), so the protected top .git/hooks cannot be stat'ed; step 2 appends
// to notes.txt (python3: a name the gate's reading of the words cannot
// see) and opens .git again.
// Held: under Landlock step 2 is refused naming .git (the walk of the
// protected tree .git is blind: agent/shell blindRefusal); under
// bubblewrap .git is bound read-only, so step 1's chmod fails. The
// hook is unchanged.
func TestRedteam18_ShutGitHidesTheHooksOtherName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_ShutGitHidesTheHooksOtherName") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			needTool(t, "python3")
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
			cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
			hook := cw.path(".git/hooks/pre-commit")
			if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(hook, cw.path("notes.txt")); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(cw.path(".git"), 0o755) })
			res0 := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("CONTROL\n")'`)
			if b, _ := os.ReadFile(hook); strings.Contains(string(b), "CONTROL") {
				t.Fatalf("control: the hook written through notes.txt with .git open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 .git")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'; chmod 755 .git`)
			os.Chmod(cw.path(".git"), 0o755)
			if b, _ := os.ReadFile(hook); strings.Contains(string(b), "PLANTED") {
				t.Errorf("the hook was written through its other name after .git was shut:\n%s\n%s\n%s", res0.Text, res1.Text, res.Text)
			}
		})
	}
}
