package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A ~/.bashrc slower than the wait, whose relative PATH entry the scan of
// its text cannot read (an eval the agent cannot see through, or the
// fifteenth red team's flooded history and path array): the PATH is
// unknown, so a program named like a command that a step makes anywhere
// in the workspace is taken out of use (the user's bash in sub does not
// run it), and a step that may write outside the workspace is not run,
// with a refusal that says why. A file named otherwise is a plain write.
func TestAShellThatDidNotSayItsPATHLeavesNoCommandPlantable(t *testing.T) {
	needEdgeTools(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	rc := "[ -e ~/slow ] && sleep 6\neval \"$(printf 'export PATH=%s:$PATH' tools)\"\n"
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			t.Parallel()
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			writeFile(t, filepath.Join(w.home, ".bashrc"), rc, 0o644)
			writeFile(t, filepath.Join(w.home, "slow"), "", 0o644)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech, "SHELL="+bash)
			reply, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant("sub/tools/ls") + r6plant("sub/tools/mine"))})
			os.Remove(filepath.Join(w.home, "slow"))
			if out := r6user(w, filepath.Join(w.root, "sub"), os.Getenv("PATH"), "bash", "-ic", "ls /dev/null"); strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's bash in sub ran sub/tools/ls, made by a step unasked while the PATH was unknown: %s\n%s", out, reply)
			}
			if _, err := os.Stat(filepath.Join(w.root, "sub", "tools", "mine")); err != nil {
				t.Errorf("a program named like no command was taken too (%v):\n%s", err, reply)
			}
		})
	}
	t.Run("outside", func(t *testing.T) {
		t.Parallel()
		w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
		writeFile(t, filepath.Join(w.home, ".bashrc"), rc, 0o644)
		writeFile(t, filepath.Join(w.home, "slow"), "", 0o644)
		p := r3mcp(t, w, w.root, os.Getenv("PATH"), "SHELL="+bash)
		out := filepath.Join(w.base, "outside.txt")
		reply, _ := p.call("bash", map[string]any{"script": "touch " + out})
		if _, err := os.Stat(out); err == nil || !strings.Contains(reply, "did not say its PATH in time") {
			t.Errorf("a step that may write outside ran, or was refused without saying why (%v):\n%s", err, reply)
		}
	})
}
