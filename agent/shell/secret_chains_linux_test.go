//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// The look at the secret paths' chains after a program
// (withSecretChains) renames only what was there and changed: a step
// that makes the home's first ~/.config (where missing stores would lie)
// keeps it (under bubblewrap; Landlock cannot let one be made in a
// home holding a store), and a link a store's path goes through, left
// as it was, stays.
func TestSecretChainsKeepWhatDidNotChange(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		useMechanism(t, m)
		w := r27TmpWorld(t)
		home := filepath.Dir(w.secret)
		must31(t, os.WriteFile(w.path("real"), []byte("Host work\n"), 0o644))
		must31(t, os.Symlink(w.path("real"), filepath.Join(w.secret, "config")))
		w.runner.Gate.Policy.LearnLinks()
		res := w.run("mkdir -p " + filepath.Join(home, ".config", "foo") + " && echo x > notes.txt")
		// Landlock cannot let a directory be made in a home that holds a
		// store (its rule would cover the store): the step fails there
		made := exists(filepath.Join(home, ".config", "foo")) || m == Landlock
		if !made || strings.Contains(res.Text, "renamed out of use") {
			t.Errorf("%s: ~/.config was not kept:\n%s", m, res.Text)
		}
		if b, err := os.ReadFile(filepath.Join(w.secret, "config")); err != nil || string(b) != "Host work\n" {
			t.Errorf("%s: ~/.ssh/config no longer reads as before (%v):\n%s", m, err, res.Text)
		}
	}
}

// Attack (withSecretChains, a chain broken then mended by two programs;
// HELD): ~/.ssh/config links to the workspace's d/cfglink, which links
// to real. One program removes d (rm -rf d: a plain write), a later one
// (tar -x, whose words name only the archive) makes d/cfglink again,
// leading to a config that names a ProxyCommand. HELD: the dangling
// link's target is looked at after each program, and what appears there
// is renamed out of use. Safe outcome: ~/.ssh/config never reads the
// program's config.
func TestRedteam33_SecretChainBrokenThenMended(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		useMechanism(t, m)
		w := r27TmpWorld(t)
		must31(t, os.MkdirAll(w.path("d"), 0o755))
		must31(t, os.WriteFile(w.path("real"), []byte("Host work\n"), 0o644))
		must31(t, os.WriteFile(w.path("evil"), []byte("Host *\n  ProxyCommand sh -c PWN\n"), 0o644))
		must31(t, os.Symlink(w.path("real"), w.path("d/cfglink")))
		must31(t, os.Symlink(w.path("d/cfglink"), filepath.Join(w.secret, "config")))
		must31(t, os.MkdirAll(w.path("t/d"), 0o755))
		must31(t, os.Symlink("../evil", w.path("t/d/cfglink")))
		w.write("mk.sh", "cd t && tar -cf ../t.tar d && cd .. && rm -rf t\n")
		w.run("sh ./mk.sh")
		w.runner.Gate.Policy.LearnLinks()
		w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		res := w.run("rm -rf d")
		res2 := w.run("tar -xf t.tar")
		if b, _ := os.ReadFile(filepath.Join(w.secret, "config")); strings.Contains(string(b), "PWN") {
			t.Errorf("%s: ~/.ssh/config reads the program's config; questions %q:\n%s\n%s", m, r29Asked(w), res.Text, res2.Text)
		}
	}
}
