//go:build open_attacks

package gate

// The sixteenth red team's attacks on the gate that GOT THROUGH (run
// with -tags open_attacks). Each test asserts the safe outcome and
// fails while the hole is open.

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Attack (target 5, no agent action needed): a developer's home whose
// covered configuration holds more than 20 000 directories within six
// levels (here ~/.vscode/extensions/ext/node_modules with 20 001
// packages, four levels down; real homes: VS Code's extensions, a
// user site-packages, ~/.local/share/Trash, a browser profile). The
// README's Neovim package link is eight levels down; linkedDots walks
// level by level, so every shallower directory of the whole home is
// charged first.
// THROUGH (severity medium-high: the README's own setup on a large home;
// with protected out of the auto set the agent's write of the plugin is
// a plain workspace write, and Neovim runs it): plug/plugin/evil.lua
// writes as Inside.
// Root cause: as above: linkedDots' budget (maxLinkedDotsLook) is
// breadth-first over the whole covered home and a cut fails open. At
// the root: the links into the workspace cannot be found by a bounded
// walk from the home; judge a workspace write by the links that reach
// it (index, per workspace, the symlinks of the covered home whose real
// path is in a root, with no depth bound and fail-closed at the bound),
// or walk the known package paths (site/pack/*/{start,opt}/*) first
// and apart from the budget.
func TestRedteam16_LargeHomeConfigHidesTheLinkedNvimPack(t *testing.T) {
	_, home, root := redHome(t)
	evil := r16packLink(t, home, root)
	nm := filepath.Join(home, ".vscode", "extensions", "ext", "node_modules")
	must(t, os.MkdirAll(nm, 0o755))
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, evil)); c < ClassProtected {
		t.Fatalf("control: in a small home the plugin file writes as %v", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		must(t, os.Mkdir(filepath.Join(nm, fmt.Sprintf("p%05d", i)), 0o755))
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, evil)); c < ClassProtected {
		t.Errorf("THROUGH: in a home with a large ~/.vscode, a plugin file Neovim runs (pack/eukhe/start/eukhe) writes as %v", c)
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Attack (target 1: the strangers' change time, roots too large for the
// look): the default protected search (scopes are the roots) in a
// workspace of more than strangerWalkBound entries (a JavaScript
// project's node_modules: 50 000 entries is a small one). ~/.config
// (1 000 entries or more: its walk kept) holds nvim/init.lua with one
// name at the session's first step; the user's dotfiles tool then
// hard-links it into the workspace within the minute; the next step's
// search.
// THROUGH (severity medium: the link is the user's, made while the
// session runs; then an opaque program writes root/init.lua, which is
// ~/.config/nvim/init.lua, with protected out of the auto set): the
// second search gives no link, complete. A fresh search finds it (the
// control).
// Root cause: the strangers' change time is the only thing that makes a
// kept walk of a place outside stale when a file of it gains a name
// (topsWithoutStrangers); when the look is cut (and, for a minute,
// skipped: strangerSkip) changed is 0 and the kept walk is trusted on
// stillNamed, which knows only the files that had several names then.
// At the root: as TestRedteam16_SecretLinkedAfterTheKeptWalkOfALargePlace
// (agent): a kept walk must be invalidated by any status change below its
// place since it was made (re-stat what it walked, or the newest ctime),
// not by what a bounded look at the roots happened to see.
func TestRedteam16_ProtectedLinkedAfterTheKeptWalkInALargeWorkspace(t *testing.T) {
	_, home, root := redHome(t)
	conf := filepath.Join(home, ".config")
	fillPlace(t, filepath.Join(conf, "many"), keepWalkFloor)
	fillPlace(t, filepath.Join(root, "node_modules"), strangerWalkBound)
	init := filepath.Join(conf, "nvim", "init.lua")
	must(t, os.MkdirAll(filepath.Dir(init), 0o755))
	must(t, os.WriteFile(init, []byte("-- mine\n"), 0o644))
	var c LinkCache
	search := func(c *LinkCache) LinkSearch {
		return c.Search(OS.(InodeFS), []string{conf}, []int{-1}, []string{root}, nil)
	}
	if r := search(&c); !r.Complete || len(r.Links) != 0 {
		t.Fatalf("control: the first search gives %+v", r)
	}
	must(t, os.Link(init, filepath.Join(root, "init.lua")))
	if r := search(&c); !slicesContains(r.Links, filepath.Join(root, "init.lua")) {
		t.Errorf("THROUGH: ~/.config/nvim/init.lua linked into a large workspace after the kept walk: the search gives %+v", r)
	}
	var fresh LinkCache
	if r := search(&fresh); !slicesContains(r.Links, filepath.Join(root, "init.lua")) {
		t.Errorf("control: a fresh search does not find it either: %+v", r)
	}
}

// Attack (target 5: linkedDots' three extra levels below `pack`): the
// README's Neovim package link for Neovim installed from Flathub
// (io.neovim.nvim: its XDG data home is ~/.var/app/io.neovim.nvim/data,
// so its package directory is ~/.var/app/io.neovim.nvim/data/nvim/site/pack,
// the seventh part below the home, and the plugin link the tenth).
// THROUGH (severity medium-high: with protected out of the auto set, the
// agent's write of the plugin is a plain workspace write, and Neovim runs
// it at every start): plug/plugin/evil.lua writes as Inside.
// Root cause: the extra levels are granted when a directory named pack
// is LISTED, and linkedDots lists no directory deeper than
// maxLinkedDotsDepth, so a pack below that depth (Flatpak's, a Vim
// under ~/.var/app/org.vim.Vim/config/vim/pack) is never seen: the fix
// moves the fixed depth by three for one spelling of one layout (as the
// fourteenth red team's open row LinkedDotsDeepAndLate says, a fixed
// depth for a tree whose depth the programs choose). At the root: find
// the links into the workspace from the workspace's side (judge a write
// by the links that reach its real path: index the covered home's
// symlinks whose target is in a root, unbounded in depth, pruned to
// directories, failing closed at a bound).
func TestRedteam16_FlatpakNvimPackLinkIsProtected(t *testing.T) {
	_, home, root := redHome(t)
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "plugin"), 0o755))
	start := filepath.Join(home, ".var", "app", "io.neovim.nvim", "data", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plug, filepath.Join(start, "eukhe")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(plug, "plugin", "evil.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: the Flatpak Neovim's package link: its plugin file writes as %v", c)
	}
}
