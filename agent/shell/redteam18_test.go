//go:build linux

package shell

// The eighteenth red team's attacks on the sandbox that HELD (the open
// ones are in redteam18_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"path/filepath"
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
			r19reopen(t, cw.path(".git"))
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

// Held (was open): the protected tree keeps a shut directory of the user's (treeDir.shut, shutDir) and the sandbox refuses a writing process while one is in the roots (blindRefusal); one the user opens is listed before the next process (opened)
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
			r19reopen(t, cw.path("sub"))
			res0 := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("CONTROL\n")'`)
			if b, _ := os.ReadFile(named); strings.Contains(string(b), "CONTROL") {
				t.Fatalf("control: sub/.nvim.lua written through notes.txt with sub open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 sub")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'`)
			at := r19open(t, cw.path("sub")) // the user's (sub was renamed out of use: a step shut it)
			res3 := cw.run("true")
			b, _ := os.ReadFile(filepath.Join(at[0], ".nvim.lua"))
			if b0, _ := os.ReadFile(named); strings.Contains(string(b)+string(b0), "PLANTED") {
				t.Errorf("sub/.nvim.lua was written through its other name while sub was shut:\n%s\n%s\n%s\n%s", res0.Text, res1.Text, res.Text, res3.Text)
			}
		})
	}
}

// Held (was open): a blind search refuses under bubblewrap only when the shut directory is in what the process may write (mayOpen)
// Attack (target a, availability): the user keeps a directory of theirs
// shut in the home's configuration (~/.config/locked, mode 000), and the
// workspace holds a file with a name outside it (dep.js, a hard link of
// a package store's file, as pnpm makes). Under bubblewrap the home is
// bound read-only, so no step can open the directory (chmod: EROFS).
// THROUGH (severity low: availability, fails closed; the user is told
// how to end it): every process of every step is refused (cat dep.js),
// the text saying "a program could open it", which under bubblewrap no
// program can.
// Root cause: gate/linkwalk_unix.go ownBlind calls blind any directory
// the user owns, not asking whether a step may change its mode there;
// agent/shell/sandbox.go places refuses for found.Blind whatever the
// mechanism binds read-only (under Landlock, which does not govern
// chmod, the refusal is right).
func TestRedteam18_ShutDirectoryInTheHomeRefusesNoProcessUnderBubblewrap(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_ShutDirectoryInTheHomeRefusesNoProcessUnderBubblewrap") {
		return
	}
	useMechanism(t, Bubblewrap)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
	locked := filepath.Join(cw.home, ".config", "locked")
	if err := os.MkdirAll(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cw.outside, "store"), []byte("module.exports = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(cw.outside, "store"), cw.path("dep.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	r19reopen(t, locked)
	if res := cw.run("chmod 755 " + locked); !strings.Contains(res.Text, "not run") && !strings.Contains(res.Text, "Read-only") {
		t.Fatalf("control: a step opened the home's directory:\n%s", res.Text)
	}
	if res := cw.run("cat dep.js"); !strings.Contains(res.Text, "module.exports") {
		t.Errorf("a process that cannot open the home's shut directory was refused:\n%s", res.Text)
	}
}
