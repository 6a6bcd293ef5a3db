package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// stepEffects is every effect of every step of script run in dir.
func stepEffects(t *testing.T, sh *Shell, script string) Effects {
	t.Helper()
	sc, err := sh.Classify(script)
	if err != nil {
		t.Fatal(err)
	}
	var e Effects
	for _, st := range sc.Steps {
		e = e.Union(st.Effects)
	}
	return e
}

// A removal of "/" removes everything below it: it has every class of
// what is below, as a removal of each of its entries ("rm -rf /*") has.
// It had write and secret only: "/" is above a user settings file, so
// its write class is Secret, and the class of one path (the first of
// Secret, Protected, Inside, Outside) stood for the whole tree.
func TestRemovingTheRootCarriesEveryClassBelowIt(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("Windows: the rows remove \"/\", which is no root there (a rooted path with no drive, never placed: secret), and name the world's paths unquoted, where a backslash is an escape; a tree's walk there: TestStepsGlobAndWalkTheSystemsSpellingOfADirectory")
	}
	w := newWorld(t)
	sh := w.shell(w.root)
	every := Of(Write, Outside, Protected, Secret)
	entries := stepEffects(t, sh, "rm -rf /*")
	for _, script := range []string{
		"rm -rf /", "rm -r /", "rm --recursive /", "rm -fR /", "chmod -R 777 /", "chown -R u /",
		"chgrp --recursive g /", "chmod -RL 777 /", "rm -rf ~", "rm -rf " + w.base, "rm -rf " + w.home,
	} {
		got := stepEffects(t, sh, script)
		if !every.SubsetOf(got) {
			t.Errorf("%s: %s, want at least %s", script, got, every)
		}
		if script == "rm -rf /" && !entries.SubsetOf(got) {
			t.Errorf("rm -rf /: %s, less than rm -rf /*: %s", got, entries)
		}
	}
	// What a tree holds, no more: the workspace holds no place outside
	// it, a .git nothing but .git, the home's configuration no place
	// outside it; without -r only the directory itself is written.
	mustMkdir(t, filepath.Join(w.base, "elsewhere", "r", ".git"))
	mustMkdir(t, filepath.Join(w.root, "build", "out"))
	if err := os.WriteFile(filepath.Join(w.root, "build", "out", "a.o"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for script, want := range map[string]Effects{
		"rm -r .":                         Of(Write, Protected),
		"rm -rf .git":                     Of(Write, Protected),
		"rm -rf build":                    Of(Write),
		"chmod -R 700 build":              Of(Write),
		"rm -rf sub":                      Of(Write, Protected), // sub/.git: a repository inside, by name
		"rm -rf ~/.config":                Of(Write, Protected, Secret),
		"rm -rf ~/notes":                  Of(Write, Outside),
		"rm -rf " + w.base + "/elsewhere": Of(Write, Outside, Protected), // r/.git, by name
		"rm -f " + w.base + "/elsewhere":  Of(Write, Outside),
		"rmdir /":                         Of(Write, Secret),
	} {
		if got := stepEffects(t, sh, script); got != want {
			t.Errorf("%s: %s, want %s", script, got, want)
		}
	}
}
