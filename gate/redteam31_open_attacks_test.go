//go:build open_attacks && linux

package gate

// The thirty-first red team's gate attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open).

import (
	"os"
	"path/filepath"
	"testing"
)

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
