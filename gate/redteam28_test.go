package gate

// The twenty-eighth red team's gate attacks that were HELD (those that
// got through: redteam28_open_attacks_test.go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 4, into.go; HELD): other spellings of the derivations
// the fix added — mkdir's -p after the operand, in a cluster, as an
// abbreviated --pa, after "--"'s options, a doubled slash before the
// ".."; cp/mv with an abbreviated --target-dir / --t=, -t after the
// operands, "DIR/." as the target, a copy into "." after cd; and the
// protected names through the same derivation (a directory copied or
// moved into .git, a link made in .git, .git carried into a
// subdirectory, a link named .git made by ln's lone operand after cd).
// Each is secret (the eukhe names) or protected (the .git names).
func TestRedteam28_IntoAndMkdirSpellingsAreJudged(t *testing.T) {
	base, home, root := redHome(t)
	out := filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "eukhe-4242"), filepath.Join(root, "x", "eukhe"), filepath.Join(root, "x", ".git"),
		filepath.Join(root, "hooks"), filepath.Join(root, ".git"), filepath.Join(root, "sub"), filepath.Join(out, "run")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o600))
	p := r14policy(home, root)
	for _, s := range []string{
		"mkdir OUT/eukhe-5/.. -p", "mkdir -vp OUT/eukhe/..", "mkdir --pa OUT/eukhe/..", "mkdir -p -- OUT/eukhe/..",
		"mkdir -p OUT/eukhe-5//..", "mkdir -p OUT/run/eukhe", "mkdir -p OUT/eukhe/run",
		"cp -r --target-dir=OUT eukhe-4242", "cp -r --t=OUT eukhe-4242", "mv --target=OUT eukhe-4242",
		"ln -s ROOT/eukhe-4242 -t OUT", "ln -sf ROOT/eukhe-4242 OUT/", "cp -r eukhe-4242 OUT/run/.",
		"cp -r eukhe-4242/ OUT/run/", "cd OUT && cp -r ROOT/eukhe-4242 .", "cd OUT && cp -r ROOT/x/eukhe .",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q (OUT outside the root) is %v, not secret", s, e)
		}
	}
	for _, s := range []string{
		"cp -r hooks .git/", "mv a.txt .git", "ln -s evil .git/", "cd sub && ln -s ROOT/x/.git", "ln -s ROOT/.git sub",
		"cp -r .git sub/", "mv .git sub/", "cp -r ROOT/.git sub",
	} {
		script := strings.ReplaceAll(s, "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Protected) {
			t.Errorf("THROUGH: %q is %v, not protected", s, e)
		}
	}
}

// r28Out is a home, a root with the directories eukhe-4242 and x/eukhe
// and the file eukhe-77, a directory OUT outside the root with run/ in
// it, and the policy over them.
func r28Out(t *testing.T) (p *Policy, home, root, out string) {
	t.Helper()
	base, home, root := redHome(t)
	out = filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "eukhe-4242"), filepath.Join(root, "x", "eukhe"), filepath.Join(out, "run")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "eukhe-77"), []byte("x"), 0o600))
	return r14policy(home, root), home, root, out
}

// Attack (target 4, into.go intoPaths; GOT THROUGH, medium): an option
// word that holds a value holding the letter T reads as -T (no target
// directory), so no name made in the target directory is judged. `cp -r
// -S.T eukhe-4242 OUT/` (a backup suffix ".T", harmless) makes
// OUT/eukhe-4242, judged write+outside only; so do mv and ln, and `-tDIR`
// whose DIR holds a T. Root cause: argv.hasShort (options.go) looks for
// the letter anywhere in a short option word, the value an -S, -t or -Z
// took attached included; intoPaths trusts it. Safe outcome: secret.
// HELD now: -T is read as getopt reads it (into.go: argv.given).
func TestRedteam28_ALetterTInAnOptionsValueReadsAsNoTargetDirectory(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{
		"cp -r -S.T eukhe-4242 OUT/", "cp -r -S.T -t OUT eukhe-4242", "mv -S.T eukhe-4242 OUT/",
		"ln -s -S.T ROOT/eukhe-4242 OUT/", "cp -r -tOUT/./T/.. eukhe-4242",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		must(t, os.MkdirAll(filepath.Join(out, "T"), 0o755))
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q makes OUT/eukhe-4242 and is %v, not secret", s, e)
		}
	}
}

// Attack (target 4, intoPaths; GOT THROUGH, medium): ln with one operand
// makes a link named as the operand's base name in the current directory.
// `cd OUT && ln -s ROOT/eukhe-4242` makes OUT/eukhe-4242 (another eukhe's
// directory name, outside the root), and `cd OUT/run && ln -s ROOT/x/eukhe`
// makes OUT/run/eukhe, a socket directory whose entries the agent writes
// in the workspace: both are judged read+write — not secret, and not even
// outside, though the link is made outside the root. Root cause: intoPaths
// returns nothing for fewer than two operands, and ln's own judgement
// (commands.go: mv/ln have facts{own: Write}) judges no path for a lone
// operand's link. Safe outcome: secret (and outside).
// HELD now: ln with one operand judges its base name in the current
// directory (into.go). The row asks secret only: by G1.5 a secret path's
// write is judged as secret, not also outside.
func TestRedteam28_LinkWithOneOperandMakesItsNameInTheCwd(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{"cd OUT && ln -s ROOT/eukhe-4242", "cd OUT/run && ln -s ROOT/x/eukhe", "cd OUT && ln ROOT/eukhe-77"} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		e := r13classify(t, p, root, home, script)
		if !e.Has(Secret) {
			t.Errorf("%q makes a name of another eukhe's directory outside the root and is %v", s, e)
		}
	}
}

// Attack (target 3's neighbour, the policy's real-path judgement; GOT
// THROUGH, medium, not from today's change): a credential store's file
// that is a symbolic link out of the store — ~/.ssh/config linked to a
// dotfiles repository, as GNU stow and home-manager make it — is judged
// by its target alone: `cat ~/.ssh/config` is read, not secret, and the
// runtime open of a redirection through a planted link to ~/.ssh reads it
// unasked (agent/shell TestRedteam28_StoreFileLinkedOutOfTheStoreIsRead).
// The hard-linked case is secret (the tenth red team's). Root cause: the
// class of a path is the class of its real path; a link inside a store
// does not make its target the store's. Safe outcome: secret.
// HELD now: a policy takes the real path of each link a secret directory
// holds as a secret too (gate/places.go: linkedOutOf, in NewPolicy).
func TestRedteam28_StoreFileLinkedOutOfTheStoreIsNotSecret(t *testing.T) {
	base, home, root := redHome(t)
	dot := filepath.Join(base, "dotfiles")
	must(t, os.MkdirAll(dot, 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(dot, "ssh_config"), []byte("Host *\n"), 0o600))
	must(t, os.Symlink(filepath.Join(dot, "ssh_config"), filepath.Join(home, ".ssh", "config")))
	p := r14policy(home, root)
	for _, s := range []string{"cat " + filepath.Join(home, ".ssh", "config"), "cat < " + filepath.Join(home, ".ssh", "config")} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("THROUGH: %q (a store's file linked out of the store) is %v, not secret", s, e)
		}
	}
}

// Ways around linkedOutOf, each held: a link one folder down in the store
// (~/.ssh/config.d/work), a relative link, and a link to a folder (a key
// folder kept in the dotfiles repository): each target is secret too.
func TestRedteam28_StoreFilesLinkedOutByOtherSpellingsAreSecret(t *testing.T) {
	base, home, root := redHome(t)
	dot := filepath.Join(base, "dotfiles")
	ssh := filepath.Join(home, ".ssh")
	must(t, os.MkdirAll(filepath.Join(dot, "keys"), 0o755))
	must(t, os.MkdirAll(filepath.Join(ssh, "config.d"), 0o700))
	for _, f := range []string{"work", "rel", filepath.Join("keys", "id_ed25519")} {
		must(t, os.WriteFile(filepath.Join(dot, f), []byte("x\n"), 0o600))
	}
	must(t, os.Symlink(filepath.Join(dot, "work"), filepath.Join(ssh, "config.d", "work")))
	must(t, os.Symlink(filepath.Join("..", "..", "dotfiles", "rel"), filepath.Join(ssh, "rel")))
	must(t, os.Symlink(filepath.Join(dot, "keys"), filepath.Join(ssh, "keys")))
	p := r14policy(home, root)
	for _, f := range []string{filepath.Join(dot, "work"), filepath.Join(dot, "rel"), filepath.Join(dot, "keys", "id_ed25519")} {
		if e := r13classify(t, p, root, home, "cat "+f); !e.Has(Secret) {
			t.Errorf("cat %s (a store's file linked out of the store) is %v, not secret", f, e)
		}
	}
}
