//go:build open_attacks && linux

package gate

// The thirty-first red team's gate attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open).

import (
	"os"
	"path/filepath"
	"testing"
)

// Attack (learnSecret never learns a target that holds a root; GOT
// THROUGH, low): ~/.ssh/keys links (made after the policy) to a data
// directory that holds the workspace and the keys beside it
// (/data/proj is the root, /data/id_work a key). `cat ~/.ssh/keys/id_work`
// is secret (Via), but the policy does not learn /data (it holds a
// root), so `cat /data/id_work` is a plain read, unasked. Root cause:
// learnSecret skips a target at or above a root, so that the workspace
// itself is not made secret, and nothing takes its place for the
// target's other entries. Safe outcome: the key named by its own path
// is secret. Suggested fix: for such a target learn its entries but the
// one that holds the root (each sibling of the root's ancestor line), or
// learn the paths read through the link (the file reached) as entries.
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

// Attack (viaClass for the home's configuration linked into the
// workspace during the session; GOT THROUGH, low): as
// TestRedteam31_DotLinksIntoTheWorkspaceAtStart, but ~/.config/nvim is
// linked to the workspace's nvim2 after the policy was made (the user
// runs a dotfiles manager). A write through the link is protected
// (Via), a write of the target by its workspace path is write only:
// with auto read, write it plants Neovim's init.lua unasked. Root cause:
// linkedDots runs once, when the policy is made; a protected link found
// later gives its class only through Via, and its target is not learned
// (learnSecret is for secret places only). Safe outcome: protected.
// Suggested fix: learn a protected link's real target as a DotRule (or
// TreeRule) when a path first resolves through it, as learnSecret does.
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

// Attack (false positive: a workspace link to a directory outside;
// GOT THROUGH, medium under a careful auto set): result is a link to a
// build's output outside the workspace (Nix's ./result into the store,
// a `current` or `latest` link, bazel-bin). Removing, renaming or
// re-pointing the link itself (rm, rm -f, unlink, mv, ln -sfn) changes
// only the workspace, yet each is judged outside, so with auto read,
// write every `rm -f result` asks. Root cause: the words of rm, mv, ln
// and unlink are resolved with their last link followed, as a write
// through the link would be; these commands act on the link. Safe
// outcome: write, not outside. Suggested fix: resolve the last part of
// the words of rm (not rm -r X/), unlink, mv's sources and ln's target
// name without following it (lstat), as the commands do.
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

// Attack (false positive: cp from outside into the workspace; GOT
// THROUGH, medium under a careful auto set): `cp ~/Downloads/data.csv
// .`, `cp /etc/hosts fixtures/`, `cp -r ../template .` are judged write
// and outside: every word of cp is judged as written (cpFacts: own
// Write), its sources too, so each copy of a file from elsewhere asks
// with auto read, write (where `cat /etc/hosts > x` does not). Safe
// outcome: write, not outside (the copies into "." are protected too:
// TestRedteam31_CopyIntoTheRootIsNotProtected). Suggested fix: judge cp's sources as
// reads and only its destination (the last word, or -t's) as a write.
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

// Attack (false positive: a copy or move into the workspace root; GOT
// THROUGH, medium under a careful auto set): `mv sub/a.txt .`, `cp
// sub/a.txt .`, `cp a.txt ./c.txt`, `cp -r sub/x .` and `ln -s a.txt .`
// write one new entry of the root, yet each is judged protected: the
// destination word "." is judged as a write of the root directory
// itself, which holds .git and .eukhe, and an ancestor of a protected
// entry is protected (protectsAs). Protected is never granted for the
// session, so with auto read, write every such step asks, every time.
// The same into a subdirectory (`cp a.txt sub/`) is write only. Root
// cause: cp, mv and ln judge their destination directory as written,
// beside the entry they make in it (into.go's derived paths). Safe
// outcome: write, not protected. Suggested fix: when the destination is
// an existing directory, judge the entries made in it (the derived
// paths) and not the directory itself.
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
