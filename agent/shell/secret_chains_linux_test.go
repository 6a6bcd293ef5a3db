//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
