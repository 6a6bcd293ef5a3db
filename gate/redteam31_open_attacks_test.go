//go:build open_attacks && linux

package gate

// The thirty-first red team's gate attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open).

import (
	"os"
	"path/filepath"
	"testing"
)

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

// Attack (a dot-link made after the policy and never resolved through;
// GOT THROUGH, low): as TestRedteam31_DotLinkMadeDuringTheSessionLeavesItsTargetPlain,
// ~/.config/nvim is linked to the workspace's nvim2 after the policy was
// made, but no step names the link: `echo x > nvim2/init.lua` is write
// only. Root cause: the home's dot-links are found by linkedDots when the
// policy is made (a walk of up to a third of a second) and learned when
// a path resolves through one (learnProtected); nothing looks at the
// home again between calls, as GitWatch does for the hooks directories.
// Safe outcome: protected. Suggested fix: have the settings watch (or a
// stamp of the covered dot-directories' change times, as GitWatch keeps)
// run linkedDots again when a directory it listed changed.
func TestRedteam31_DotLinkMadeAfterThePolicyNeverResolvedThrough(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "nvim2"), 0o755))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(root, "nvim2"), filepath.Join(home, ".config", "nvim")))
	if e := r13classify(t, p, root, home, "echo x > nvim2/init.lua"); !e.Has(Protected) {
		t.Errorf("nvim2/init.lua (Neovim's init by its own path) is %v, not protected", e)
	}
}
