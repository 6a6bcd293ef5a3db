package gate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A step's Reals are every real path it names, in shell code it runs
// too, and a link swapped in changes them: what a grant is for.
func TestStepRealsFollowWhatTheStepNames(t *testing.T) {
	needSymlinks(t)
	w := newAttackWorld(t)
	reals := func(script string) []string {
		t.Helper()
		sc, err := w.shell(w.root).Classify(script)
		if err != nil || len(sc.Steps) != 1 {
			t.Fatalf("%q: %v %+v", script, err, sc.Steps)
		}
		return sc.Steps[0].Reals
	}
	for _, script := range []string{"cat plain/x/y.txt", "sh -c 'cat plain/x/y.txt'", "cat < plain/x/y.txt"} {
		if got := reals(script); !slices.Contains(got, filepath.Join(w.root, "plain/x/y.txt")) {
			t.Errorf("%q: Reals %v lack the file it names", script, got)
		}
	}
	before := reals("cat plain/x/y.txt")
	mustDo(t, os.RemoveAll(filepath.Join(w.root, "plain/x")))
	mustLink(t, filepath.Join(w.root, "tree"), filepath.Join(w.root, "plain/x"))
	if after := reals("cat plain/x/y.txt"); slices.Equal(before, after) {
		t.Errorf("a directory swapped for a link left the step's Reals %v", after)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
