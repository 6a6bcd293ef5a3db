package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The gate reads the directories a step globs and walks as the system
// spells them: on Windows its own form of C:\w (/C:/w) opened nothing,
// so every glob was a word the gate could not expand (exec, shown as
// written: `ls *.txt`, and `echo $?`, whose runtime marker holds a ?),
// $PWD was shown as no run prints it, and a recursive write's walk saw
// nothing under the tree (a .git inside it was not found). These run on
// every system.
func TestStepsGlobAndWalkTheSystemsSpellingOfADirectory(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(w.root, "globbed")
	mustMkdir(t, filepath.Join(dir, "sub", ".git"))
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for script, want := range map[string]string{
		"echo *.txt":          "echo a.txt b.txt",
		"false; echo $? x":    "echo $? x",
		"echo $PWD":           "echo " + Visible(dir),
		"cd sub && echo $PWD": "echo " + Visible(filepath.Join(dir, "sub")),
	} {
		sc, err := w.shell(dir).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		st := sc.Steps[len(sc.Steps)-1]
		if st.Text != want || st.Effects.Has(Exec) {
			t.Errorf("%q is shown as %q (%s), want %q and no exec", script, st.Text, st.Effects.Names(), want)
		}
	}
	sc, err := w.shell(dir).Classify("rm -r sub")
	if err != nil {
		t.Fatal(err)
	}
	if effs := sc.Steps[0].Effects; !effs.Has(Protected) {
		t.Errorf("rm -r sub, which holds a .git, is %s, want protected", effs.Names())
	}
}
