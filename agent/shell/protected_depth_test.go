package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Protected names at any depth, whenever they appear (issue 20, class 4):
// a step allowed write but not protected makes a .git (this world's one
// protected name; the session's are every name gate.NamedProtected has)
// deep below the root — in a new tree, by a rename, as a
// file or a link, twice in one script, or from a child that outlived the
// step — and every one is renamed out of use to a name of its own, the
// reply naming each; a .git that was there before stays, read-only.
func TestConfinedProtectedEntriesAtAnyDepth(t *testing.T) {
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read, gate.Write))
		os.MkdirAll(cw.path("old/repo/.git/hooks"), 0o755)
		os.WriteFile(cw.path("old/repo/.git/config"), []byte("[core]\n"), 0o644)
		os.MkdirAll(cw.path("a/b"), 0o755)
		rows := []struct{ script, made string }{
			{"mkdir -p a/b/.git/hooks && echo '[core] fsmonitor = x' > a/b/.git/config", "a/b/.git"},
			{"mkdir -p a/n1/n2/n3 && mkdir a/n1/n2/n3/.git", "a/n1/n2/n3/.git"},
			{"mkdir -p a/x a/r && mv a/x a/r/.git", "a/r/.git"},
			{"sh -c 'echo gitdir: /tmp/evil > a/.git'", "a/.git"},
			{"mkdir -p a/l && ln -s /tmp a/l/.git", "a/l/.git"},
		}
		for _, r := range rows {
			res := cw.run(r.script)
			if exists(cw.path(r.made)) {
				t.Errorf("%s: %s stayed in use under %s:\n%s", r.script, r.made, m, res.Text)
			}
			if !strings.Contains(res.Text, cw.path(r.made)+" → "+cw.path(r.made)+refusedSuffix) {
				t.Errorf("%s: the reply does not say %s was renamed under %s:\n%s", r.script, r.made, m, res.Text)
			}
		}
		// two steps in one script, each making sub/.git: two names
		res := cw.run("mkdir -p a/s && mkdir a/s/.git && mkdir a/s/.git")
		if exists(cw.path("a/s/.git")) || strings.Count(res.Text, "a/s/.git → ") != 2 || strings.Contains(res.Text, "not renamed") {
			t.Errorf("a/s/.git made twice in one script under %s:\n%s", m, res.Text)
		}
		// the repository that was there before stays, and is read-only
		res = cw.run("echo x > old/repo/.git/hooks/pre-commit")
		if !exists(cw.path("old/repo/.git")) || exists(cw.path("old/repo/.git/hooks/pre-commit")) {
			t.Errorf("the old repository under %s: %v, hook %v:\n%s", m, exists(cw.path("old/repo/.git")), exists(cw.path("old/repo/.git/hooks/pre-commit")), res.Text)
		}
	})
}

// A child that outlives its step (backgrounded, setsid, double-forked)
// cannot make a protected entry after the scan: no process of a step
// outlives it.
func TestConfinedNoProcessOutlivesItsStep(t *testing.T) {
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read, gate.Write))
		os.MkdirAll(cw.path("a"), 0o755)
		// three children that try to outlive their step: backgrounded,
		// in a session of their own, and double-forked
		script := "mkdir -p a/late0 a/late1 a/late2; " +
			"sh -c '(sleep 1; mkdir a/late0/.git) &'; " +
			"sh -c 'setsid sh -c \"sleep 1; mkdir a/late1/.git\" &'; " +
			"sh -c 'sh -c \"sh -c \\\"sleep 1; mkdir a/late2/.git\\\" &\" &'"
		res := cw.run(script)
		time.Sleep(2 * time.Second)
		for i := 0; i < 3; i++ {
			if exists(cw.path(fmt.Sprintf("a/late%d/.git", i))) {
				t.Errorf("a child made a/late%d/.git after its step under %s:\n%s", i, m, res.Text)
			}
		}
	})
}

func TestProtectedTreeFindsOnlyWhatIsNew(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "x/.git"), 0o755)
	tr := &protectedTree{}
	names := []string{".git", ".vscode"}
	made, present := tr.refresh([]string{root}, names)
	if len(made) != 0 || len(present) != 1 {
		t.Fatalf("first: made %v present %v", made, present)
	}
	os.MkdirAll(filepath.Join(root, "y/z/w"), 0o755)
	os.Mkdir(filepath.Join(root, "y/z/w/.vscode"), 0o755)
	os.WriteFile(filepath.Join(root, "x/.git/config"), []byte("x"), 0o644) // inside: not new
	made, _ = tr.refresh([]string{root}, names)
	if len(made) != 1 || made[0] != filepath.Join(root, "y/z/w/.vscode") {
		t.Fatalf("made %v", made)
	}
	if made, _ = tr.refresh([]string{root}, names); len(made) != 0 {
		t.Fatalf("again: %v", made)
	}
}

// A directory named like one eukhe renamed out of use hides nothing.
func TestProtectedTreeWalksEveryDirectory(t *testing.T) {
	root := t.TempDir()
	tr := &protectedTree{}
	names := []string{".git"}
	tr.refresh([]string{root}, names)
	hidden := filepath.Join(root, "x"+refusedSuffix+"1/sub/.git")
	os.MkdirAll(hidden, 0o755)
	if made, _ := tr.refresh([]string{root}, names); len(made) != 1 || made[0] != hidden {
		t.Fatalf("made %v, want %s", made, hidden)
	}
}
