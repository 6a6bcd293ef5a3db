package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// eukhe tool bash confines each program a step runs (issue 13): under
// bubblewrap and under Landlock (the binary re-runs itself with the hidden
// __confine argument), a program the gate lets run for exec cannot read a
// secret no word of it names.
func TestCLI_bash_confines_each_program(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		testkit.Missing(t, "python3 is not installed: the step's program is a python3 one (.ci/run installs it)")
	}
	w := newWS(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("SECRET-KEY-MATERIAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `python3 -c 'import os; print(open(os.environ["HOME"] + "/.ssh/" + "id_ed25519").read())'; echo done`
	for _, m := range []string{"bubblewrap", "landlock", "none"} {
		t.Run(m, func(t *testing.T) {
			cmd := exec.Command(binary, "tool", "bash", "--root", w.root, `{"script": `+quoteJSON(script)+`}`)
			cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+home, "EUKHE_CONFINEMENT="+m)
			out, _ := cmd.CombinedOutput()
			leaked := strings.Contains(string(out), "SECRET-KEY-MATERIAL")
			if leaked != (m == "none") || !strings.Contains(string(out), "done") {
				t.Fatalf("under %s: leaked %v\n%s", m, leaked, out)
			}
		})
	}
}
