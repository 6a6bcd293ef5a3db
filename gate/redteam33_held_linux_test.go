//go:build linux

package gate

// The thirty-third red team's gate attacks that were HELD when it ran
// (each asserts the safe outcome and passes); the ones that got through
// are in redteam33_open_attacks_test.go, which uses the helpers here.

import (
	"os"
	"path/filepath"
	"testing"
)

// r33Repolicy makes the world's policy again (its home's links and
// learned targets are found when a policy is made), the world's root
// first, then more roots.
func r33Repolicy(w *world, roots ...string) {
	w.policy = Places{Home: w.home, UserDir: w.userDir, Roots: append([]string{w.root}, roots...),
		SettingsFiles: []string{filepath.Join(w.userDir, "settings.json"), filepath.Join(w.root, ".eukhe", "settings.json")},
		PathDirs:      []string{w.bin}}.Policy(OS)
}

// r33Write writes a file for a row's setup.
func r33Write(t *testing.T, path, body string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Attack (roles.go, a recursive copy's carried names; HELD, high): a
// template directory of the workspace holds .git/hooks/pre-commit, and a
// recursive copy lands it in the workspace's own .git under every
// spelling cp takes for "its contents here": tpl/., -T, -t with
// tpl/., --no-target-directory, tpl/.git into ., tpl/.git/hooks into
// .git/, tpl/.git/. into .git. HELD: copyTreeParts judges each carried
// name where it lands. Safe outcome: each step is protected.
func TestRedteam33_RecursiveCopyOfAHooksTemplateIsProtected(t *testing.T) {
	w := newWorld(t)
	r33Write(t, filepath.Join(w.root, "tpl", ".git", "hooks", "pre-commit"), "#!/bin/sh\necho PWN\n")
	r33Repolicy(w)
	for _, s := range []string{
		"cp -r tpl/. .", "cp -rT tpl .", "cp -r -t . tpl/.", "cp -R --no-target-directory tpl .",
		"cp -a tpl/.git .", "cp -r tpl/.git/hooks .git/", "cp -r tpl/.git/. .git",
	} {
		if got := stepEffects(t, w.shell(w.root), s); !got.Has(Protected) {
			t.Errorf("THROUGH: %s is %v: the template's hook lands in .git unasked", s, got)
		}
	}
}

// Attack (roles.go, false positives under the default auto set; HELD,
// medium): removing, unlinking or moving a workspace link to a place
// outside (Nix's result), and copying a file into the root that holds
// .git. HELD: rm, unlink and mv act on the link itself, and a copy into
// a directory is judged by the entry it makes. Safe outcome: none of
// them is outside or protected.
func TestRedteam33_EverydayLinkAndCopyStepsAreNotOutside(t *testing.T) {
	w := newWorld(t)
	mustLink(t, filepath.Join(w.base, "store", "abc-result"), filepath.Join(w.root, "result"))
	r33Repolicy(w)
	for _, s := range []string{"rm -f result", "unlink result", "mv result result.old", "cp src/main.go ."} {
		if got := stepEffects(t, w.shell(w.root), s); got.Has(Outside) || got.Has(Protected) || got.Has(Secret) {
			t.Errorf("THROUGH (false positive): %s is %v", s, got)
		}
	}
}

// Attack (linktargets.go, a new name in a target above a root; HELD since dotLoads: a dot-link whose target holds a root keeps its program's loads; was OPEN,
// low): ~/.config/nvim links to ~/code, which holds the workspace
// ~/code/proj. `echo x > ~/.config/nvim/init.lua` is protected, but the
// same file by its own path, ~/code/init.lua, is only outside while it
// does not exist yet. Root cause: ReachBelow lists the target's entries
// that exist when the policy is made; a name made later is none of them
// (a sibling of the known open row where the link leads to the root
// itself). Safe outcome: the write by its own path is protected.
// Suggested fix: for a target that holds a root, make the target's own
// directories (those not on the way to a root) protected by a rule that
// covers new names (a DotRule-like rule on the target minus the roots'
// branches), not by a listing.
func TestRedteam33_NewInitInALinkedConfigAboveTheRootIsPlain(t *testing.T) {
	w := newWorld(t)
	work := filepath.Join(w.home, "code")
	mustMkdir(t, filepath.Join(work, "proj", ".git"))
	r33Write(t, filepath.Join(work, "notes.txt"), "x\n")
	mustLink(t, work, filepath.Join(w.home, ".config", "nvim"))
	r33Repolicy(w, filepath.Join(work, "proj"))
	if got := stepEffects(t, w.shell(w.root), "echo x > ~/.config/nvim/init.lua"); !got.Has(Protected) {
		t.Fatalf("control: the init by the link's path is %v", got)
	}
	if _, err := os.Lstat(filepath.Join(work, "init.lua")); err == nil {
		t.Fatal("setup: init.lua exists")
	}
	if got := stepEffects(t, w.shell(w.root), "echo x > "+filepath.Join(work, "init.lua")); !got.Has(Protected) {
		t.Errorf("THROUGH: a new init.lua written by its own path is %v", got)
	}
}

// Attack (false positive under the default auto set; KEPT BY LAW,
// medium): an agent prints its home directory (`echo $HOME`, `echo ~`,
// `printf '%s\n' "$HOME"`); each asks secret, and headless it is
// refused. The seed's S7.8 decides it: "a word that is or holds a secret
// (`cat ~/.ssh/id_ed25519`, `grep -r KEY ~`) adds secret", whatever the
// command; echo's words are words like any other. The row asserts the
// law and the everyday way out: `pwd` in the home, and `echo hi` there,
// add no secret. Safe outcome: the words that hold a store are secret;
// the others are not.
func TestRedteam33_EchoOfTheHomeAsksSecretByLaw(t *testing.T) {
	w := newWorld(t)
	for _, s := range []string{"echo $HOME", "echo ~", "printf '%s\\n' \"$HOME\""} {
		if got := stepEffects(t, w.shell(w.root), s); !got.Has(Secret) {
			t.Errorf("%s is %v: a word that holds a secret adds secret (S7.8)", s, got)
		}
	}
	for _, s := range []string{"pwd", "echo hi"} {
		if got := stepEffects(t, w.shell(w.home), s); got.Has(Secret) {
			t.Errorf("%s in the home is %v", s, got)
		}
	}
}
