//go:build open_attacks

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The ninth red team's attacks that got through (after the eighth's
// fixes), behind the open_attacks tag: each asserts the safe outcome and
// fails until the product is fixed. Run them with
// go test -tags open_attacks -run TestAttackOpen9 ./cmd/eukhe.

// What: the workspace past the walk's bound, made by a step (a program
// with the workspace only: 200100 files in node_modules/aaa/, as `npm
// install` makes node_modules), and in a later session a step's program
// writes zz-dotfiles/init.lua, the user's hard link of
// ~/.config/nvim/init.lua (sorted after node_modules), under both
// mechanisms.
// Why: gate.LinkCache.Search walks the roots for the other names with
// one budget (MaxLinkWalk) and stops at it, Complete false; the sandbox
// (agent/shell/sandbox.go places) binds only the names found and refuses
// only for a step allowed outside. The step itself chose the size.
// Fix: as above (an incomplete search refuses every process it would
// leave a name writable to); or look up the workspace's files with more
// than one name first (a walk of the roots that keeps only those), and
// bound the home's walk instead.
func TestAttackOpen9_a_workspace_a_step_makes_past_the_bound(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	if testing.Short() {
		t.Skip("makes 200100 files")
	}
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := r9worldAt(t, "tmpfs", r9ws)
			cfg := filepath.Join(w.home, ".config", "nvim", "init.lua")
			writeFile(t, cfg, "-- the user's own\n", 0o644)
			name := filepath.Join(w.root, "zz-dotfiles", "init.lua")
			mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
			mustDo(t, os.MkdirAll(filepath.Join(w.root, "node_modules"), 0o755))
			mustDo(t, os.Link(cfg, name))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			code := "import os\nd = 'node_modules/aaa'\nos.makedirs(d, exist_ok=True)\nfor i in range(200100):\n  open(os.path.join(d, 'f%07d' % i), 'w').close()\nprint('MADE' + 'OK')\n"
			start := time.Now()
			made := r7wait(p, r3py(code))
			t.Logf("the step made 200100 files in %s", time.Since(start).Round(time.Millisecond))
			if !strings.Contains(made, "MADEOK") {
				t.Fatalf("the step did not make the files:\n%s", made)
			}
			start = time.Now()
			_, reply := r8write(t, w, mech, []string{name}, "PWNED9\n")
			r9log(t, reply)
			t.Logf("the next session's step: %s", time.Since(start).Round(time.Millisecond))
			if r7holds(cfg, "PWNED9") {
				t.Errorf("~/.config/nvim/init.lua was written unasked through its workspace name (the workspace past the bound):\n%s", reply)
			}
		})
	}
}

// ===================================================================
// the PATH of the user's shells (gate/settings/shellpath.go)
// ===================================================================
