//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// Past the map's bound, a directory shut to the user (gate.DirShut: chmod
// 000 or 100 by a step) is what a mapped one is (treeDir.shut): shut
// since the last walk, it is taken as made (renamed out of use), it is
// among the shut directories while it stays so (the sandbox refuses a
// writing process), and opened again it has the next look refresh. Run
// as a user without root's permission override (RunWithoutDAC).
func TestProtectedTreeSeesAShutDirectoryPastTheBound(t *testing.T) {
	if !testkit.RunWithoutDAC(t, "TestProtectedTreeSeesAShutDirectoryPastTheBound") {
		return
	}
	for _, mode := range []os.FileMode{0o000, 0o100, 0o400} {
		t.Run(mode.String(), func(t *testing.T) {
			old := maxTreeDirs
			maxTreeDirs = 5
			t.Cleanup(func() { maxTreeDirs = old })
			root := t.TempDir()
			for _, d := range []string{"a/1/x", "a/2/x", "a/3/x", "b/1/x", "c/q/r"} {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			shut := filepath.Join(root, "c/q/r")
			t.Cleanup(func() { os.Chmod(shut, 0o755) })
			// a directory changed in the tick its listing began is listed
			// again (racy), which would map what is below it
			time.Sleep(50 * time.Millisecond)
			names := []string{".git", ".nvim.lua"}
			roots := []string{root}
			tr := &protectedTree{}
			if made, _ := tr.refresh(roots, names); !tr.full || len(made) != 0 {
				t.Fatalf("the first map: full %v, made %q", tr.full, made)
			}
			if _, ok := tr.dirs[shut]; ok {
				t.Fatal("the row proves nothing: c/q/r is mapped")
			}
			if err := os.WriteFile(filepath.Join(shut, ".nvim.lua"), []byte("PLANTED\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(shut, mode); err != nil {
				t.Fatal(err)
			}
			made, _ := tr.refresh(roots, names)
			if _, ok := tr.dirs[shut]; ok {
				t.Fatal("the row proves nothing: c/q/r was mapped")
			}
			if !slices.Contains(made, shut) {
				t.Errorf("a directory past the bound shut since the last walk is not made: %q", made)
			}
			if got := tr.shutDirs(); !slices.Equal(got, []string{shut}) {
				t.Errorf("shut directories past the bound: %q, want %q", got, shut)
			}
			if made, _ := tr.refresh(roots, names); slices.Contains(made, shut) {
				t.Errorf("still shut and unchanged, it is made again: %q", made)
			}
			if err := os.Chmod(shut, 0o755); err != nil {
				t.Fatal(err)
			}
			tr.mu.Lock()
			opened := tr.opened()
			tr.mu.Unlock()
			if !opened {
				t.Error("opened again, the shut directory past the bound does not have the next look refresh")
			}
		})
	}
}

// The nineteenth red team's row past the map's bound: a process writes
// sub/.nvim.lua in a directory the first map did not list and shuts sub;
// it is renamed out of use as in the mapped row
// (TestRedteam19_ShutDuringTheProcessIsRenamedOutOfUse), so the user who
// opens sub finds no planted file at its name.
func TestShutPastTheBoundIsRenamedOutOfUse(t *testing.T) {
	if !r17withoutDAC(t, "TestShutPastTheBoundIsRenamedOutOfUse") {
		return
	}
	old := maxTreeDirs
	maxTreeDirs = 3
	t.Cleanup(func() { maxTreeDirs = old })
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, mode := range []string{"0o100", "0o000"} {
			t.Run(string(m)+"_"+mode, func(t *testing.T) {
				needTool(t, "python3")
				useMechanism(t, m)
				cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
				cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
				for _, d := range []string{"a/1", "a/2", "b/1", "deep/x/sub"} {
					cw.write(d+"/keep", "")
				}
				sub := cw.path("deep/x/sub")
				t.Cleanup(func() {
					subs, _ := filepath.Glob(sub + "*")
					for _, p := range subs {
						os.Chmod(p, 0o755)
					}
				})
				time.Sleep(50 * time.Millisecond) // none racy: the first map stays past its bound
				cw.run("true")                    // the first map, past its bound
				res := cw.run(`python3 -c 'import os; open("deep/x/sub/.nvim"+".lua","w").write("PLANTED\n"); os.chmod("deep/x/s"+"ub", ` + mode + `)'`)
				os.Chmod(sub, 0o755) // the user opens it
				if b, err := os.ReadFile(filepath.Join(sub, ".nvim.lua")); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("deep/x/sub/.nvim.lua planted at its name past the bound by a step that shut sub (%s):\n%s", mode, res.Text)
				}
			})
		}
	}
}
