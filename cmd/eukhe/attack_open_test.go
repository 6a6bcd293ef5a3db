//go:build open_attacks

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The attacks still open: each got through when it was written and still
// does; the closing notes say why each is not fixed yet. They build only
// with the tag open_attacks (go test -tags open_attacks -run
// TestAttackOpen ./cmd/eukhe), so CI stays green while they are kept
// where the next person finds them. Fixing one moves it to its round's
// file.

// The sandbox does not rename a directory a process makes whose path
// ends with a relative PATH entry (EndRule is the gate's alone: "every
// build's bin/ would go"); it drops relative entries from the child's
// PATH. But the user's shell keeps them: a program (exec, not
// protected) makes sub/bin/ls and sub/node_modules/.bin/cat, and the
// user's ls and cat in sub run them.
func TestAttackOpen_a_relative_PATH_directory_a_program_makes_keeps_its_plant(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			path := "./bin:node_modules/.bin:" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os\n" +
					"for d, n in (('sub/bin', 'ls'), ('sub/node_modules/.bin', 'cat')):\n" +
					"  os.makedirs(d, exist_ok=True); open(d + '/' + n, 'w').write(" + fmt.Sprintf("%q", planted) + "); os.chmod(d + '/' + n, 0o755)\n")})
			for _, prog := range []string{"ls", "cat"} {
				cmd := exec.Command("sh", "-c", prog+" /dev/null")
				cmd.Dir = filepath.Join(w.root, "sub")
				cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+w.home)
				out, _ := cmd.CombinedOutput()
				if strings.Contains(string(out), "PLANTEDRAN") {
					t.Errorf("the user's %s in sub ran the program a step's program planted in a relative PATH directory there: %s\n%s", prog, out, text)
				}
			}
		})
	}
}
