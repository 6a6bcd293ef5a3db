//go:build open_attacks && linux

package shell

// The twentieth red team's attacks on the sandbox that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 4, shut directories past the protected tree's bound:
// the nineteenth red team's row, where the map stops): in a workspace
// past maxTreeDirs (lowered to 2 here; 50,000 in life: a monorepo with
// its node_modules), one process makes zz/d/sub in a directory the first
// map left to the walk past the bound, writes zz/d/sub/.nvim.lua (a
// Named protected file: Neovim runs it) and, last, shuts sub (chmod 100
// or 000). The user then opens sub (after a permission error), and one
// more step runs.
// THROUGH under Landlock and bubblewrap, both modes (severity medium: a
// program the user's editor runs, planted without a question; it needs a
// tree past the bound and the user's chmod): sub/.nvim.lua holds PLANTED
// at its name. Left open, the same file is renamed out of use
// (TestRedteam20_ProgramMadePastTheBoundIsRenamedOutOfUse).
// Root cause: agent/shell/protected_beyond.go walkBeyond drops the error
// of readDirUnsorted: a shut directory past the bound is walked as
// empty, never marked shut (protected_tree.go treeDir.shut and
// protectedTree.shut cover only the mapped directories, so refresh does
// not take it as made and places' blindRefusal never sees it); once the
// user opens it, the next process's before() takes .nvim.lua for the
// user's (beyond holds it before the process).
func TestRedteam20_ShutPastTheBoundDuringTheProcessHidesAPlant(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ShutPastTheBoundDuringTheProcessHidesAPlant") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, mode := range []string{"0o100", "0o000"} {
			t.Run(string(m)+"_"+mode, func(t *testing.T) {
				cw := r20beyondWorld(t, m)
				r19reopen(t, cw.path("zz/d/sub"))
				cw.run("true")
				if r20mapped(cw, "zz/d") {
					t.Fatal("zz/d is mapped: the row proves nothing")
				}
				res := cw.run(`python3 -c 'import os; os.mkdir("zz/d/s"+"ub"); open("zz/d/sub/.nvim"+".lua","w").write("PLANTED\n"); os.chmod("zz/d/s"+"ub", ` + mode + `)'`)
				r19open(t, cw.path("zz/d/sub"))
				res2 := cw.run("true")
				if b, err := os.ReadFile(cw.path("zz/d/sub/.nvim.lua")); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("zz/d/sub/.nvim.lua planted at its name by a step that shut sub past the bound (%s):\n%s\n%s", mode, res.Text, res2.Text)
				}
			})
		}
	}
}

// Attack (target 4, the eighteenth red team's row past the bound): the
// project's zz/d/sub/.nvim.lua (past the map's bound) has another name
// in the workspace, notes.txt (a hard link, the user's). The control: a
// write through notes.txt is refused (the walk past the bound finds
// .nvim.lua, and the search for its other names makes notes.txt
// read-only). Step 1 shuts sub (chmod 000). Step 2 appends to notes.txt
// (python3: a name the gate's reading of the words cannot see). The user
// opens sub, and one more step runs.
// THROUGH under Landlock and bubblewrap (severity medium: as the row
// above; the in-map variant holds: TestRedteam18_ShutDirectoryHidesANamedFilesOtherName):
// step 2 is not refused, and .nvim.lua holds PLANTED.
// Root cause: agent/shell/protected_beyond.go walkBeyond walks the shut
// sub as empty, so .nvim.lua drops out of present (no protected top for
// the link search: notes.txt is not made read-only) and no shut
// directory is known (protectedTree.shutDirs lists the map's only), so
// sandbox.go places' blind refusal does not fire either.
func TestRedteam20_ShutPastTheBoundHidesANamedFilesOtherName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ShutPastTheBoundHidesANamedFilesOtherName") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			cw := r20beyondWorld(t, m)
			cw.write("zz/d/sub/.nvim.lua", "-- the project's\n")
			named := cw.path("zz/d/sub/.nvim.lua")
			if err := os.Link(named, cw.path("notes.txt")); err != nil {
				t.Fatal(err)
			}
			r19reopen(t, cw.path("zz/d/sub"))
			res0 := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("CONTROL\n")'`)
			if r20mapped(cw, "zz/d") {
				t.Fatal("zz/d is mapped: the row proves nothing")
			}
			if b, _ := os.ReadFile(named); strings.Contains(string(b), "CONTROL") {
				t.Fatalf("control: .nvim.lua written through notes.txt with sub open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 zz/d/sub")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'`)
			at := r19open(t, cw.path("zz/d/sub"))
			res3 := cw.run("true")
			b, _ := os.ReadFile(filepath.Join(at[0], ".nvim.lua"))
			if b0, _ := os.ReadFile(named); strings.Contains(string(b)+string(b0), "PLANTED") {
				t.Errorf(".nvim.lua was written through its other name while sub (past the bound) was shut:\n%s\n%s\n%s\n%s", res0.Text, res1.Text, res.Text, res3.Text)
			}
		})
	}
}

// Attack (target 3, PathUnknown, in the sandbox): the user's PATH holds
// "~/bin" with its tilde (bash expands it at each search), holding their
// command r20deploy; their shell did not say its PATH in time, so a
// program named like a command is protected wherever it is. One process
// makes tools/r20deploy (executable, by a rename the gate's reading of
// the words cannot see).
// THROUGH under Landlock and bubblewrap (severity low: needs the unknown
// PATH, which the agent can force by slowing the shell, and a tilde
// entry): tools/r20deploy is in use after the step (the control, the
// same with an absolute PATH directory, holds:
// TestRedteam17_UnknownPathProgramMadeByRenameIsTakenOutOfUse).
// Root cause: agent/shell/protected_shadow.go setShadow lists only the
// absolute entries of the PATH it is given (the env's and
// policy.PathDirs(), as given: "~/bin" unexpanded), so r20deploy is no
// command to pathShadow; gate/policy.go isCommandName likewise (the gate
// row of the same name).
func TestRedteam20_UnknownPathMissesTheTildeEntrysCommands(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			home := filepath.Join(base, "h")
			if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "bin", "r20deploy"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			w := r20unknownWorld(t, m, "~/bin", home)
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "deploy")'`)
			if _, err := os.Lstat(w.path("tools/r20deploy")); err == nil {
				t.Errorf("tools/r20deploy (a command of ~/bin) is in use after the step:\n%s", res.Text)
			}
		})
	}
}

// Attack (target 3, PathUnknown, in the sandbox): a PATH directory the
// user can search but not list (0111 here, another user's 0711 in life)
// holds the command r20tool; with the PATH unknown, one process makes
// tools/r20tool (executable, by a rename).
// THROUGH under Landlock and bubblewrap (severity low, as above):
// tools/r20tool is in use after the step.
// Root cause: agent/shell/protected_shadow.go setShadow skips a PATH
// directory it cannot open or list (os.Open's error, Readdirnames's
// ignored), where any name may be a command there; gate/policy.go
// isCommandName likewise (the gate row of the same name).
func TestRedteam20_UnknownPathMissesAnUnlistableDirectorysCommands(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_UnknownPathMissesAnUnlistableDirectorysCommands") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(base, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bin, "r20tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(bin, 0o111); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(bin, 0o755) })
			w := r20unknownWorld(t, m, bin, filepath.Join(base, "h"))
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "tool")'`)
			if _, err := os.Lstat(w.path("tools/r20tool")); err == nil {
				t.Errorf("tools/r20tool (a command of an unlistable PATH directory) is in use after the step:\n%s", res.Text)
			}
		})
	}
}
