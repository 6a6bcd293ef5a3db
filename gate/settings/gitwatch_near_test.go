package settings

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// A repository made below the root during the session (or deeper than
// the walk of the start reaches): before a write below it is judged,
// Near finds it and its config's hooks and includes are protected.
func TestGitWatch_near_finds_a_repository_made_during_the_session(t *testing.T) {
	t.Run("a root by its real path", func(t *testing.T) { nearTest(t, false) })
	t.Run("a root through a link", func(t *testing.T) { nearTest(t, true) })
}

func nearTest(t *testing.T, link bool) {
	base := t.TempDir()
	root, home := filepath.Join(base, "w"), filepath.Join(base, "home")
	put(t, filepath.Join(root, "a.txt"), "a\n")
	given := root
	if link {
		given = filepath.Join(base, "link")
		if err := os.Symlink(root, given); err != nil {
			t.Fatal(err)
		}
	}
	policy := gate.Places{Roots: []string{given}, Home: home}.Policy(gate.OS)
	git := NewGitWatch([]string{given}, home, map[string]string{})
	policy.SetNear(git.Near(policy))
	class := func(rel string) gate.Class {
		return policy.ClassWrite(gate.Resolve(gate.OS, root, filepath.Join(root, rel)))
	}
	if c := class("vendor/lib/.githooks/pre-commit"); c != gate.ClassInside {
		t.Fatalf("before the repository: %v", c)
	}
	nested := filepath.Join(root, "vendor", "lib")
	put(t, filepath.Join(nested, "lib.txt"), "lib\n")
	put(t, filepath.Join(nested, ".git", "config"), "[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../../../shared.gitconfig\n")
	git.Refresh(policy) // no file it read changed
	for _, rel := range []string{"vendor/lib/.githooks/pre-commit", "shared.gitconfig"} {
		if c := class(rel); c != gate.ClassProtected {
			t.Errorf("%s: %v, want protected", rel, c)
		}
	}
	if c := class("vendor/lib/lib.txt"); c != gate.ClassInside {
		t.Errorf("a plain file of the repository: %v", c)
	}
}
