//go:build open_attacks

package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// Open (the tenth red team's): linkedDots looks for links in the home's
// configuration three levels deep only, so a link deeper is not a
// DotRule of its own, and what is behind it resolves Outside.
// A dot-directory reached through a link deeper than the policy looks
// for links when it starts (a dotfiles manager that links
// ~/.local/share/nvim/site/pack/mine to its own tree, GNU stow's folded
// trees): Neovim loads what is there at its start, so a write there, by
// the link's path, its real path, or another name of a file there, is
// Protected.
func TestRedTeam10_configuration_behind_a_deep_directory_link_is_protected(t *testing.T) {
	base, home, root := redHome(t)
	real := filepath.Join(base, "dotfiles", "nvim-pack")
	must(t, os.MkdirAll(filepath.Join(real, "start", "mine", "plugin"), 0o755))
	site := filepath.Join(home, ".local", "share", "nvim", "site", "pack")
	must(t, os.MkdirAll(site, 0o755))
	must(t, os.Symlink(real, filepath.Join(site, "mine")))
	plugin := filepath.Join(real, "start", "mine", "plugin", "p.lua")
	hardLink(t, plugin, filepath.Join(root, "p.lua"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, path := range []string{filepath.Join(site, "mine", "start", "mine", "plugin", "new.lua"), plugin, filepath.Join(root, "p.lua")} {
		if got := p.ClassWrite(Resolve(OS, root, path)); got != ClassProtected {
			t.Errorf("write %s: %v, want %v", path, got, ClassProtected)
		}
	}
}
