//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

func r20beyondWorld(t *testing.T, m Mechanism) *confinedWorld {
	t.Helper()
	needTool(t, "python3")
	useMechanism(t, m)
	old := maxTreeDirs
	maxTreeDirs = 2
	t.Cleanup(func() { maxTreeDirs = old })
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
	for _, d := range []string{"a/1", "a/2", "a/3", "b/1", "zz/d"} {
		if err := os.MkdirAll(cw.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return cw
}

func r20mapped(cw *confinedWorld, rel string) bool {
	cw.runner.protected.mu.Lock()
	defer cw.runner.protected.mu.Unlock()
	_, ok := cw.runner.protected.dirs[cw.path(rel)]
	return ok
}

func TestR20_BeyondShutDuring(t *testing.T) {
	if !r17withoutDAC(t, "TestR20_BeyondShutDuring") {
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
					t.Errorf("planted:\n%s\n%s", res.Text, res2.Text)
				}
			})
		}
	}
}

func TestR20_BeyondShutHidesOtherName(t *testing.T) {
	if !r17withoutDAC(t, "TestR20_BeyondShutHidesOtherName") {
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
				t.Fatalf("control: written through notes.txt with sub open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 zz/d/sub")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'`)
			at := r19open(t, cw.path("zz/d/sub"))
			res3 := cw.run("true")
			b, _ := os.ReadFile(filepath.Join(at[0], ".nvim.lua"))
			if b0, _ := os.ReadFile(named); strings.Contains(string(b)+string(b0), "PLANTED") {
				t.Errorf("written through its other name while shut:\n%s\n%s\n%s\n%s", res0.Text, res1.Text, res.Text, res3.Text)
			}
		})
	}
}

func r20unknownWorld(t *testing.T, m Mechanism, pathDir string, home string) *world {
	t.Helper()
	needTool(t, "python3")
	useMechanism(t, m)
	effects := gate.Of(gate.Read, gate.Write, gate.Exec)
	w := newWorld(t, gate.AutoOf(effects))
	w.runner.blind = func(gate.Effects) gate.Effects { return effects }
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home, PathDirs: []string{pathDir}, PathUnknown: true}.Policy(gate.OS)
	return w
}

func TestR20_TildePathShell(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, _ := filepath.EvalSymlinks(t.TempDir())
			home := filepath.Join(base, "h")
			os.MkdirAll(filepath.Join(home, "bin"), 0o755)
			os.WriteFile(filepath.Join(home, "bin", "r20deploy"), []byte("#!/bin/sh\n"), 0o755)
			w := r20unknownWorld(t, m, "~/bin", home)
			os.MkdirAll(w.path("tools"), 0o755)
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "deploy")'`)
			if _, err := os.Lstat(w.path("tools/r20deploy")); err == nil {
				t.Errorf("in use:\n%s", res.Text)
			}
		})
	}
}

func TestR20_UnlistablePathShell(t *testing.T) {
	if !r17withoutDAC(t, "TestR20_UnlistablePathShell") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, _ := filepath.EvalSymlinks(t.TempDir())
			bin := filepath.Join(base, "bin")
			os.MkdirAll(bin, 0o755)
			os.WriteFile(filepath.Join(bin, "r20tool"), []byte("#!/bin/sh\n"), 0o755)
			os.Chmod(bin, 0o111)
			t.Cleanup(func() { os.Chmod(bin, 0o755) })
			w := r20unknownWorld(t, m, bin, filepath.Join(base, "h"))
			os.MkdirAll(w.path("tools"), 0o755)
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "tool")'`)
			if _, err := os.Lstat(w.path("tools/r20tool")); err == nil {
				t.Errorf("in use:\n%s", res.Text)
			}
		})
	}
}
