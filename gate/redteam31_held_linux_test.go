//go:build linux

package gate

// The thirty-first red team's gate attacks that were HELD when it ran
// (each asserts the safe outcome and passes); the ones that got through
// are in redteam31_open_attacks_test.go, which uses r31Learned too.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// r31Learned is a policy whose home's ~/.ssh/keys links (made after the
// policy) to a directory outside; a read through the link has been
// judged, so its target is a learned secret entry. dots is the target's
// parent, keys the target.
func r31Learned(t *testing.T) (p *Policy, home, root, dots, keys string) {
	t.Helper()
	base, home, root := redHome(t)
	dots = filepath.Join(base, "dotfiles")
	keys = filepath.Join(dots, "keys")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(keys, 0o755))
	must(t, os.WriteFile(filepath.Join(keys, "id_work"), []byte("k"), 0o600))
	p = r14policy(home, root)
	must(t, os.Symlink(keys, filepath.Join(home, ".ssh", "keys")))
	if e := r13classify(t, p, root, home, "cat ~/.ssh/keys/id_work"); !e.Has(Secret) {
		t.Fatalf("the read through the link is %v", e)
	}
	return p, home, root, dots, keys
}

// Attack (learnSecret, the learned target moved or copied away; HELD):
// once ~/.ssh/keys's target is learned, the agent renames it (or its
// parent) so that its files have a path no entry names, hard-links a key
// out, copies or archives the tree, or removes it. HELD: the learned
// entry is a secret entry like any other: a write of it is secret, a
// path above it holds a secret, and what reads it reads a secret. Safe
// outcome: every step is secret.
func TestRedteam31_LearnedTargetCannotBeMovedAway(t *testing.T) {
	needSymlinks(t)
	p, home, root, dots, keys := r31Learned(t)
	for _, s := range []string{
		"mv KEYS KEYS2", "mv DOTS DOTS2", "ln KEYS/id_work x", "cp -r DOTS x", "tar cf x.tar DOTS",
		"rm -rf DOTS", "cat KEYS/id_work", "cat DOTS/./keys/../keys/id_work", "ls KEYS", "grep -r x DOTS",
		"find DOTS -type f", "chmod -R 644 DOTS", "rsync -a DOTS/ x/",
	} {
		s = strings.NewReplacer("KEYS", keys, "DOTS", dots).Replace(s)
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("THROUGH: %q is %v, not secret", s, e)
		}
	}
}

// Attack (recursive writes judged by the tree, tree.go; HELD): the
// workspace holds L, a link to ~/.ssh, and the agent removes or changes
// trees that reach it: rm -r L/ (a trailing slash makes rm go into the
// link's target), chmod -R -L and chown -RL (follow the links in the
// tree), find -L . -delete, rm -rf with a glob that matches .git, and
// chmod -R of the home. HELD: the tree's top is its real path (the
// link followed), -L makes the walk follow links, and a glob's words
// are each walked. Safe outcome: secret for the store, protected for
// .git.
func TestRedteam31_RecursiveWritesReachingTheStore(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("k"), 0o600))
	must(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "sub", "L")))
	for s, want := range map[string]Effect{
		"rm -r sub/L/": Secret, "chmod -R -L 600 .": Secret, "chown -RL 0 sub": Secret,
		"find -L . -delete": Secret, "rm -rf .[!.]*": Protected, "chmod -R u+w ~": Secret,
		"rm -r sub/L/.": Secret, "chgrp -R -L 0 sub/": Secret,
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(want) {
			t.Errorf("THROUGH: %q is %v, not %v", s, e, want)
		}
	}
}

// Attack (tree.go's bound; HELD): a workspace directory with more
// entries than the walk looks at (maxWalk), a .git with hooks after
// them in the walk's order, removed whole. HELD: past the bound the
// step is protected. Safe outcome: protected.
func TestRedteam31_TreeLargerThanTheWalkIsProtected(t *testing.T) {
	_, home, root := redHome(t)
	big := filepath.Join(root, "big")
	must(t, os.MkdirAll(filepath.Join(big, "a"), 0o755))
	for i := range maxWalk + 10 {
		must(t, os.WriteFile(filepath.Join(big, "a", fmt.Sprintf("f%05d", i)), nil, 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(big, "z", "vendored", ".git", "hooks"), 0o755))
	p := r14policy(home, root)
	if e := r13classify(t, p, root, home, "rm -rf big"); !e.Has(Protected) {
		t.Errorf("THROUGH: rm -rf of a tree past the walk's bound is %v", e)
	}
}

// Attack (viaClass, links in protected and secret places made after
// the policy; HELD): ~/.config/x links to ~/.ssh (a protected place's
// link into a store), a workspace link G to the root's .git, and a
// link to a link in ~/.config: a read through each, and a write of a
// hook through G. HELD: the link in the store's path makes it secret
// (the first of the classes wins), and a write through G lands in .git
// by its real path. Safe outcome: secret, and protected.
func TestRedteam31_ViaThroughProtectedAndSecretLinks(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("k"), 0o600))
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, ".config", "x")))
	must(t, os.Symlink(filepath.Join(home, ".config", "x"), filepath.Join(root, "C")))
	must(t, os.Symlink(filepath.Join(root, ".git"), filepath.Join(root, "G")))
	for s, want := range map[string]Effect{
		"cat ~/.config/x/id": Secret, "cat C/id": Secret, "cd C && cat id": Secret,
		"echo x > G/hooks/pre-commit": Protected, "cd G/hooks && echo x > pre-commit": Protected,
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(want) {
			t.Errorf("THROUGH: %q is %v, not %v", s, e, want)
		}
	}
}

// Attack (viaClass for the home's configuration linked into the
// workspace at the start; HELD): ~/.config/nvim and ~/.bashrc link into
// the workspace (the user edits a dotfiles repository); auto set read,
// write. A write of the targets by their workspace paths plants what
// Neovim and bash run. HELD: linkedDots made DotRules for the links'
// real targets when the policy was made. Safe outcome: protected.
func TestRedteam31_DotLinksIntoTheWorkspaceAtStart(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "nvim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "bashrc"), []byte("x"), 0o644))
	must(t, os.Symlink(filepath.Join(root, "nvim"), filepath.Join(home, ".config", "nvim")))
	must(t, os.Symlink(filepath.Join(root, "bashrc"), filepath.Join(home, ".bashrc")))
	p := r14policy(home, root)
	for _, s := range []string{"echo x > nvim/init.lua", "echo x >> bashrc", "mkdir -p nvim/plugin && echo x > nvim/plugin/a.lua"} {
		if e := r13classify(t, p, root, home, s); !e.Has(Protected) {
			t.Errorf("THROUGH: %q is %v, not protected", s, e)
		}
	}
}

// Attack (false positives; HELD): everyday steps in a workspace: go
// build, git log, sed -i, cat, a recursive remove of a build directory
// and of node_modules. HELD: none is outside, protected or secret.
func TestRedteam31_EverydayStepsAreNotRaised(t *testing.T) {
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "node_modules", ".bin"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "build", "obj"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "README.md"), []byte("a"), 0o644))
	p := r14policy(home, root)
	for _, s := range []string{
		"go build ./...", "git log", "sed -i s/a/b/ README.md", "cat README.md", "rm -rf build", "rm -rf node_modules",
		"chmod -R u+w build", "find build -name '*.o' -delete",
	} {
		if e := r13classify(t, p, root, home, s); e.Has(Outside) || e.Has(Protected) || e.Has(Secret) {
			t.Errorf("%q is %v", s, e)
		}
	}
}

// Attack (learnSecret never learned a target that holds a root; HELD
// since, low; GOT THROUGH when the red team ran): ~/.ssh/keys links
// (made after the policy) to a data directory that holds the workspace
// and the keys beside it (/data/proj is the root, /data/id_work a key).
// `cat ~/.ssh/keys/id_work` is secret (Via), and `cat /data/id_work` was
// a plain read, unasked: learnSecret skipped a target at or above a root
// so that the workspace itself is not made secret, and nothing took its
// place. HELD by ReachBelow (gate linktargets.go): learnSecret learns
// each entry of the target beside the workspace (every entry of each
// directory from the target down to the root's parent but the ones on
// the way to the root). Safe outcome: the key named by its own path is
// secret.
func TestRedteam31_LinkToAboveTheRootLeavesItsKeysPlain(t *testing.T) {
	needSymlinks(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, data := filepath.Join(base, "home"), filepath.Join(base, "data")
	root := filepath.Join(data, "proj")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.WriteFile(filepath.Join(data, "id_work"), []byte("k"), 0o600))
	p := r14policy(home, root)
	must(t, os.Symlink(data, filepath.Join(home, ".ssh", "keys")))
	if e := r13classify(t, p, root, home, "cat ~/.ssh/keys/id_work"); !e.Has(Secret) {
		t.Fatalf("the read through the link is %v", e)
	}
	for _, s := range []string{"cat ../id_work", "cat " + filepath.Join(data, "id_work")} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("%q is %v, not secret", s, e)
		}
	}
}

// Attack (false positive: a workspace link to a directory outside;
// got through when the red team ran, medium under a careful auto set;
// HELD now): result is a link to a
// build's output outside the workspace (Nix's ./result into the store,
// a `current` or `latest` link, bazel-bin). Removing, renaming or
// re-pointing the link itself (rm, rm -f, unlink, mv, ln -sfn) changes
// only the workspace, yet each is judged outside, so with auto read,
// write every `rm -f result` asks. Root cause: the words of rm, mv, ln
// and unlink are resolved with their last link followed, as a write
// through the link would be; these commands act on the link. Safe
// outcome: write, not outside. HELD by roles.go: the words of rm and
// unlink, mv's sources and a destination ln -n, ln -T or mv -T replaces
// are resolved with their last link not followed (Policy.ResolveLink),
// as the commands act on them (a trailing slash still follows: rm -r
// result/ goes through); the link's target counts only when it is
// secret or protected (a middle link of a settings file's chain).
func TestRedteam31_RemovingAWorkspaceLinkIsNotOutside(t *testing.T) {
	needSymlinks(t)
	base, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(base, "store", "abc-hello", "bin"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(base, "store", "abc-hello"), filepath.Join(root, "result")))
	for _, s := range []string{"rm result", "rm -f result", "unlink result", "mv result old-result", "ln -sfn other result"} {
		if e := r13classify(t, p, root, home, s); e.Has(Outside) {
			t.Errorf("%q is %v: the link in the workspace is written, not its target", s, e)
		}
	}
}

// Attack (viaClass for the home's configuration linked into the
// workspace during the session; HELD since, low; GOT THROUGH when the red
// team ran): as TestRedteam31_DotLinksIntoTheWorkspaceAtStart, but
// ~/.config/nvim is linked to the workspace's nvim2 after the policy was
// made (a dotfiles manager). A write through the link is protected
// (Via); a write of the target by its workspace path was write only,
// since linkedDots runs once, when the policy is made. HELD by
// learnProtected (gate linktargets.go): a path resolved through a link
// that lies in a protected place has the link's target learned as that
// part of the home (a DotRule) for the rest of the session. Safe
// outcome: protected.
func TestRedteam31_DotLinkMadeDuringTheSessionLeavesItsTargetPlain(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "nvim2"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(root, "nvim2"), filepath.Join(home, ".config", "nvim")))
	if e := r13classify(t, p, root, home, "echo x > ~/.config/nvim/init.lua"); !e.Has(Protected) {
		t.Fatalf("the write through the link is %v", e)
	}
	if e := r13classify(t, p, root, home, "echo x > nvim2/init.lua"); !e.Has(Protected) {
		t.Errorf("nvim2/init.lua (Neovim's init by its own path) is %v, not protected", e)
	}
}

// Attack (false positive: cp from outside into the workspace; got
// through when the red team ran, medium under a careful auto set; HELD
// now): `cp ~/Downloads/data.csv
// .`, `cp /etc/hosts fixtures/`, `cp -r ../template .` are judged write
// and outside: every word of cp is judged as written (cpFacts: own
// Write), its sources too, so each copy of a file from elsewhere asks
// with auto read, write (where `cat /etc/hosts > x` does not). Safe
// outcome: write, not outside (the copies into "." are protected too:
// TestRedteam31_CopyIntoTheRootIsNotProtected). HELD by roles.go: cp's
// sources are read (secret when they are or hold a secret), its
// destination (the last operand, or -t's value) and the entries made in
// it written; cp -l and -s, which link to their sources, write them as
// ln does; a recursive copy's trees are judged by the names they carry
// (copyTreeParts).
func TestRedteam31_CopyFromOutsideIsNotOutside(t *testing.T) {
	base, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(base, "template"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, "Downloads"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, "Downloads", "data.csv"), []byte("a"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "fixtures"), 0o755))
	p := r14policy(home, root)
	for _, s := range []string{"cp ~/Downloads/data.csv .", "cp /etc/hosts fixtures/", "cp -r ../../template ."} {
		if e := r13classify(t, p, root, home, s); e.Has(Outside) {
			t.Errorf("%q is %v: it writes only the workspace", s, e)
		}
	}
}

// Attack (false positive: a copy or move into the workspace root; got
// through when the red team ran, medium under a careful auto set; HELD
// now): `mv sub/a.txt .`, `cp
// sub/a.txt .`, `cp a.txt ./c.txt`, `cp -r sub/x .` and `ln -s a.txt .`
// write one new entry of the root, yet each is judged protected: the
// destination word "." is judged as a write of the root directory
// itself, which holds .git and .eukhe, and an ancestor of a protected
// entry is protected (protectsAs). Protected is never granted for the
// session, so with auto read, write every such step asks, every time.
// The same into a subdirectory (`cp a.txt sub/`) is write only. Root
// cause: cp, mv and ln judge their destination directory as written,
// beside the entry they make in it (into.go's derived paths). Safe
// outcome: write, not protected. HELD by roles.go: a destination that is
// an existing directory the command goes into (no -T, every source
// giving an entry) is judged by the entries made in it (into.go's
// derived paths), and as a directory only for a secret among its own
// entries; with POSIXLY_CORRECT possibly set the words are judged as
// before.
func TestRedteam31_CopyIntoTheRootIsNotProtected(t *testing.T) {
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub", "x"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("a"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	p := r14policy(home, root)
	if e := r13classify(t, p, root, home, "cp a.txt sub/"); e.Has(Protected) {
		t.Fatalf("the copy into a subdirectory is %v", e)
	}
	for _, s := range []string{"mv sub/a.txt .", "cp sub/a.txt .", "cp a.txt ./c.txt", "cp -r sub/x .", "ln -s a.txt ."} {
		if e := r13classify(t, p, root, home, s); e.Has(Protected) {
			t.Errorf("%q is %v: it makes one plain entry of the root", s, e)
		}
	}
}

// Attack (the link roles of the fix above, spelled so that the command
// does go through the link; HELD): result links to a directory outside,
// keys to ~/.ssh. A trailing slash makes rm and mv act on the target
// (rm result/, rm -r result/, mv result/ x), and mv, ln (without -n)
// and cp go into a destination that links to a directory; a T inside
// another option's value (-S.T: a backup suffix) is no -T, and an empty
// POSIXLY_CORRECT (set: getopt asks only that) makes -T an operand.
// HELD: ResolveLink follows a path ending in "/", "." or "..", -T and -n
// are read as getopt reads them, the roles are dropped wherever
// POSIXLY_CORRECT may be set, and a destination a command goes into is
// judged by the entries it makes there. Safe outcome: outside for the
// store, secret for the keys.
func TestRedteam31_LinkRolesStillGoThroughWhereTheCommandDoes(t *testing.T) {
	needSymlinks(t)
	base, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(base, "store", "abc-hello"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("k"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(base, "store", "abc-hello"), filepath.Join(root, "result")))
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "keys")))
	for s, want := range map[string]Effect{
		"rm result/": Outside, "rm -r result/": Outside, "mv result/ x": Outside, "rm -r result/.": Outside,
		"mv a.txt result": Outside, "ln -sf a.txt result": Outside, "cp a.txt result": Outside,
		"mv -S.T a.txt result": Outside, "POSIXLY_CORRECT= mv a.txt -T result": Outside,
		"POSIXLY_CORRECT=1 ln -sn a.txt -T result": Outside, "export POSIXLY_CORRECT=; mv a.txt -T result": Outside,
		"mv a.txt keys": Secret, "ln -sf a.txt keys": Secret, "cp -r a.txt keys/": Secret, "mv keys/ k2": Secret,
		"ln -sfn a.txt keys/id": Secret, "rm keys/id": Secret, "mv -T a.txt keys/id": Secret,
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(want) {
			t.Errorf("THROUGH: %q is %v, not %v", s, e, want)
		}
	}
}

// Attack (a recursive copy's trees, now that its sources are read and a
// destination directory is judged by the entry made in it; HELD): a
// template outside the roots holding .git/hooks or .vscode/tasks.json
// copied into the workspace (cp -r ../../tpl ., cp -a ../../tpl/ new,
// cp -rT into a workspace directory, cp -r with --parents) plants a
// repository's hooks or an editor's tasks under a new name, and a tree
// holding eukhe/ copied to a directory outside makes another eukhe's
// socket directory; a tree holding a link to ~/.ssh plants that link in
// the workspace, as ln -s would. HELD: copyTreeParts walks each source
// tree and judges every name where it lands (pathHolds), as a recursive
// write of that tree would be judged, and each link it carries as ln -s's
// target is (copiedLink). Safe outcome: protected (secret for the eukhe
// directory and the link).
func TestRedteam31_ACopiedTreeCarriesItsNames(t *testing.T) {
	base, home, root := redHome(t)
	tpl := filepath.Join(base, "tpl")
	must(t, os.MkdirAll(filepath.Join(tpl, ".git", "hooks"), 0o755))
	must(t, os.WriteFile(filepath.Join(tpl, ".git", "hooks", "pre-commit"), []byte("x"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "tpl2", "deep", ".vscode"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "tpl2", "deep", ".vscode", "tasks.json"), []byte("{}"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "y", "eukhe"), 0o755))
	out := filepath.Join(base, "out", "run")
	must(t, os.MkdirAll(out, 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(base, "tpl3"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(base, "tpl3", "k")))
	for s, want := range map[string]Effect{
		"cp -r ../../tpl3 .": Secret, "cp -a ../../tpl3/ sub/x": Secret,
		"cp -r ../../tpl .": Protected, "cp -a ../../tpl/ new": Protected, "cp -rT ../../tpl sub": Protected,
		"cp -R ../../tpl2 sub/": Protected, "cp -r -t . ../../tpl2/deep": Protected,
		"cp -r y OUT": Secret, "cp -r y/. OUT": Secret,
	} {
		s = strings.ReplaceAll(s, "OUT", out)
		if e := r13classify(t, p, root, home, s); !e.Has(want) {
			t.Errorf("THROUGH: %q is %v, not %v", s, e, want)
		}
	}
}

// Attack (false positives: the destination's other spellings; HELD):
// -t DIR as a word of its own, --target-directory DIR, --parents, mv
// -t, each into the root or a plain workspace directory, with sources
// outside. HELD: -t's value word is the destination (copyOperands), and
// --parents' entries lie in it. The controls: the same spellings into
// .git, ~/.ssh, and --parents carrying a .git into the root. Safe
// outcome: write only; protected and secret for the controls.
func TestRedteam31_TheDestinationsOtherSpellings(t *testing.T) {
	base, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub", "x", ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("a"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "sub", "x", ".git", "config"), []byte("a"), 0o644))
	must(t, os.MkdirAll(filepath.Join(base, "tpl"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "tpl", "b.go"), []byte("a"), 0o644))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	p := r14policy(home, root)
	for _, s := range []string{
		"cp -t . ../../tpl/b.go", "cp --target-directory . sub/a.txt", "cp --parents sub/a.txt .",
		"mv -t . sub/a.txt", "cp -v -t sub ../../tpl/b.go", "cp -r --parents sub/a.txt ./",
	} {
		if e := r13classify(t, p, root, home, s); e.Has(Outside) || e.Has(Protected) || e.Has(Secret) {
			t.Errorf("%q is %v", s, e)
		}
	}
	for s, want := range map[string]Effect{
		"cp -t .git sub/a.txt": Protected, "mv -t ~/.ssh sub/a.txt": Secret, "cp --parents sub/x/.git/config .": Protected,
		"cp -r --parents sub/x .": Protected, "cp --parents ../../tpl/b.go .": Outside,
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(want) {
			t.Errorf("THROUGH: %q is %v, not %v", s, e, want)
		}
	}
}
