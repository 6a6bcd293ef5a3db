//go:build open_attacks && linux

package gate_test

// The thirty-second red team's gate attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open). The
// held ones are in redteam32_held_linux_test.go, with the helpers.

import (
	"github.com/eukhe/eukhe/gate"
	"os"
	"path/filepath"
	"testing"
)

// Attack (another eukhe's state directory; GOT THROUGH, medium): the
// user runs an eukhe in another environment (XDG_STATE_HOME=OTHER, a
// second desktop session, a container's bind mount of the home); the
// session's gate makes secret only its own state directory, so a step
// reads OTHER/eukhe/discovery/key, and with it signs an entry that the
// other eukhe's clients (`eukhe mcp`, `eukhe approvals`) verify and
// attach to. Root cause: the state directory is secret by its path in
// this environment only; the key file has no name rule, as discovery
// entries have (anyEukheRunEntry). Safe outcome: a read of any
// eukhe/discovery/key (and eukhe/*/key) outside the roots is secret.
func TestRedteam32_AnotherEukhesKeyIsNotSecret(t *testing.T) {
	var other string
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		other = filepath.Join(filepath.Dir(home), "other-state")
		must32(t, os.MkdirAll(filepath.Join(other, "eukhe", "discovery"), 0o700))
		must32(t, os.WriteFile(filepath.Join(other, "eukhe", "discovery", "key"), make([]byte, 32), 0o600))
	})
	if e := r32Effects(t, p, root, home, "cat ~/.local/state/eukhe/discovery/key"); !e.Has(gate.Secret) {
		t.Fatalf("control: this eukhe's key is %v", e)
	}
	if e := r32Effects(t, p, root, home, "cat "+filepath.Join(other, "eukhe", "discovery", "key")); !e.Has(gate.Secret) {
		t.Errorf("THROUGH: another eukhe's discovery key is %v, not secret", e)
	}
}

// r32LinkedPolicy is a policy whose home links link (a path in the home)
// to the workspace's target ("" the root itself), with ~/.local/bin on
// PATH.
func r32LinkedPolicy(t *testing.T, link, target string) (p *gate.Policy, root, home string) {
	env := map[string]string{}
	return r32GitPolicy(t, env, func(root, home string) {
		bin := filepath.Join(home, ".local", "bin")
		env["PATH"] = bin + ":/usr/bin:/bin"
		must32(t, os.MkdirAll(bin, 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must32(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
		must32(t, os.Symlink(filepath.Join(root, target), filepath.Join(home, link)))
	})
}

// Attack (false positive: reachHooks for every protected link to the
// root; GOT THROUGH, low): the home links ~/.local/bin/proj (a PATH
// directory) or ~/.config/proj to the workspace root. `echo … > update`
// (a root script named update is common), pre-commit, post-merge … ask:
// reachHooks gives the git hook names in a target that is a root for
// every protected link, where git runs them only from a hooks directory.
// Root cause: learnProtected and linkedDots add reachHooks whatever the
// link's place is. Safe outcome: a write of ./update is not protected
// when no hooks directory or core.hooksPath reaches the root. Suggested
// fix: add reachHooks only for a link that is a hooks directory (or
// lies in one: the rule's hooks place), not for PATH or dot links.
func TestRedteam32_ALinkToTheRootMakesItsUpdateScriptProtected(t *testing.T) {
	for _, link := range []string{".local/bin/proj", ".config/proj"} {
		p, root, home := r32LinkedPolicy(t, link, "")
		if e := r32Effects(t, p, root, home, "echo x > update"); e.Has(gate.Protected) {
			t.Errorf("~/%s: a write of ./update is %v", link, e)
		}
	}
}

// Attack (a dot-link to the workspace root; GOT THROUGH, medium):
// ~/.config/nvim links to the workspace root (the user works on the
// Neovim config's repository, the usual dotfiles setup). The agent
// writes init.lua or lua/plugins/x.lua: Neovim runs it at its next start,
// in the user's editor and outside every sandbox. Before the
// thirty-first red team's change the root was protected whole (every
// write asked); now a target that is a root gives only its hook names
// (ReachBelow gives none), so the editor's init is plain. Root cause:
// ReachBelow and reachHooks give nothing for a dot-link's target that is
// the root but git hook names. Safe outcome: a write of init.lua is
// protected. Suggested fix: for a dot-link to a root, protect the names
// its program loads there (DotCovers' list for that dot-name: init.lua,
// init.vim, lua/, plugin/, after/, ftplugin/ for nvim), not the root whole.
func TestRedteam32_ADotLinkToTheRootLeavesTheEditorsInitPlain(t *testing.T) {
	p, root, home := r32LinkedPolicy(t, ".config/nvim", "")
	for _, s := range []string{"echo 'os.execute(\"x\")' > init.lua", "mkdir -p lua && echo x > lua/x.lua"} {
		if e := r32Effects(t, p, root, home, s); !e.Has(gate.Protected) {
			t.Errorf("THROUGH: %q is %v, not protected", s, e)
		}
	}
}

// Attack (false positive: a directory linked into a PATH directory; GOT
// THROUGH, low): ~/.local/bin/scripts links to the workspace's scripts/
// directory. PATH runs only the PATH directory's own entries, not what a
// directory in it holds, yet learnLinksIn makes the target protected
// whole: every write in scripts/ (notes.md) asks. Root cause: a link in
// a Tree rule's place gives its target whole, whatever the place is.
// Safe outcome: scripts/notes.md is plain (the link itself stays
// protected). Suggested fix: for a PATH directory's links, learn a
// target that is a file (a program) only.
func TestRedteam32_ADirectoryLinkedIntoPathMakesItWholeProtected(t *testing.T) {
	p, root, home := r32LinkedPolicy(t, ".local/bin/scripts", "scripts")
	if e := r32Effects(t, p, root, home, "echo x > scripts/notes.md"); e.Has(gate.Protected) {
		t.Errorf("a note in a directory linked into PATH is %v", e)
	}
}
