//go:build open_attacks

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The ninth red team's attacks that got through (after the eighth's
// fixes), behind the open_attacks tag: each asserts the safe outcome and
// fails until the product is fixed. Run them with
// go test -tags open_attacks -run TestAttackOpen9 ./cmd/eukhe.

// What: a file of the home's configuration gets a second name in the
// workspace, made by the user (a dotfiles repository's install script,
// stow, in another terminal) within the minute after a process of the
// session made the walk; a later process of a step with the workspace
// only writes that name, under both mechanisms. (A step allowed outside
// was held when found: its scopes held the home, so the home's walk was
// not kept; since the walk is kept by the workspace roots, at 1.1 s a
// process in a large home, it is open for such a step too.)
// Why: gate/links_tops.go walkTop keeps a walk of a place outside the
// scopes for topsFresh and checks only the files it found with more than
// one name (stillNamed); a file that had one name is not among them, so
// its new name changes nothing the check looks at, the file is never
// wanted, and the sandbox (agent/shell/sandbox.go places) binds nothing
// for it. The doc names the window and argues only the user can open it:
// the user opened it, and the agent's step wrote through it.
// Fix: validate the kept walk by something a new link changes: an
// inotify watch on the walked directories (IN_ATTRIB reports a change of
// a file's link count), dropping the walk at any event; or keep every
// regular file's (dev, ino, nlink) and re-stat them (no readdir).
func TestAttackOpen9_a_link_the_user_makes_within_the_minute_the_walk_is_kept(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r9ws)
			deep := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua")
			out := filepath.Join(w.root, "dotfiles", "r9.lua")
			writeFile(t, deep, "-- the user's own\n", 0o644)
			mustDo(t, os.MkdirAll(filepath.Dir(out), 0o755))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			// the first process makes the walk; the user links while the
			// script sleeps; the second process writes the new name
			linked := make(chan error, 1)
			go func() {
				time.Sleep(1500 * time.Millisecond)
				linked <- os.Link(deep, out)
			}()
			reply, _ := p.call("bash", map[string]any{"script": r3py("print('FIRST' + 'RAN')") + "; sleep 4; " + r3py("import os\n"+r7append(out, "PWNED9\n"))})
			r9log(t, reply)
			mustDo(t, <-linked)
			if os.Getenv("R9DEBUG") != "" {
				b, _ := exec.Command("find", w.base, "-type", "f", "-links", "+1").CombinedOutput()
				t.Logf("files with other names:\n%s", b)
			}
			if !strings.Contains(reply, "FIRSTRAN") {
				t.Fatalf("the first process did not run:\n%s", reply)
			}
			if r7holds(deep, "PWNED9") {
				t.Errorf("~/.config/nvim/lua/user/r9.lua was written unasked through %s, linked by the user within the minute:\n%s", out, reply)
			}
		})
	}
}

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
