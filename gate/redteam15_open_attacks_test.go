//go:build open_attacks

package gate

// The fifteenth red team's attacks on the gate that GOT THROUGH (run with
// -tags open_attacks). Each asserts the safe outcome and fails while the
// hole is open.

import (
	"os"
	"path/filepath"
	"testing"
)

// Attack (target 4): the user follows eukhe's own README for Neovim
// ("link editors/nvim as ~/.local/share/nvim/site/pack/eukhe/start/eukhe")
// and works on eukhe's clone: the workspace's editors/nvim is a plugin
// Neovim loads at every start. The link is the eighth part below the
// home (.local/share/nvim/site/pack/eukhe/start/eukhe); the same holds
// for any plugin a dotfiles manager links one by one into a pack's
// start directory that already holds others (GNU stow folds no deeper
// than the first directory that exists).
// THROUGH (severity high: with protected out of the auto set, the
// agent's write of editors/nvim/plugin/x.lua is a plain workspace write,
// unasked, and runs at the user's next nvim): the write is Inside.
// Root cause: linkedDots looks six levels deep (maxLinkedDotsDepth) when
// the policy is made, and nothing else finds a home dot-directory's link
// into the workspace: a fixed depth for a tree whose depth the programs
// choose (Neovim's packpath is site/pack/*/start/*, eight parts). At the
// root: judge a write's real path by the links that reach it, not by a
// walk from the home: keep, per workspace, the set of links into it
// found by a walk of the covered dot-directories with no depth bound but
// pruned to directories (not files) and to no cache (HomeWritable), or
// ask the kernel (fanotify/inotify on the covered dirs) for links made;
// at least walk Neovim's and Vim's packpath (site/pack/*/{start,opt}/*)
// explicitly.
func TestRedteam15_NvimPluginLinkedAsTheREADMESaysIsProtected(t *testing.T) {
	_, home, root := redHome(t)
	plugin := filepath.Join(root, "editors", "nvim")
	must(t, os.MkdirAll(filepath.Join(plugin, "plugin"), 0o755))
	start := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plugin, filepath.Join(start, "eukhe")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(plugin, "plugin", "x.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: editors/nvim/plugin/x.lua, a plugin file Neovim runs at start, writes as %v", c)
	}
}
