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

// Attack (false positive: -t's value attached to its option; GOT
// THROUGH, low under a careful auto set): `cp -t. a.txt`, `cp
// --target-directory=. sub/a.txt` and `mv -t. sub/a.txt` are judged
// protected, where `cp -t . a.txt` is write only. Root cause: a value
// inside an option word is one of the word's candidates (words.go),
// judged as written; the roles (roles.go) are given to whole words only,
// so the destination directory is judged whole again. Safe outcome:
// write, not protected. Suggested fix: give the role to the candidate
// that is -t's value (optEvent knows where it lies), and judge the other
// candidates of the word as now.
func TestRedteam31_AttachedTargetDirectoryIsNotProtected(t *testing.T) {
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("a"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	p := r14policy(home, root)
	for _, s := range []string{"cp -t. a.txt", "cp --target-directory=. sub/a.txt", "mv -t. sub/a.txt"} {
		if e := r13classify(t, p, root, home, s); e.Has(Protected) {
			t.Errorf("%q is %v: it makes one plain entry of the root", s, e)
		}
	}
}
