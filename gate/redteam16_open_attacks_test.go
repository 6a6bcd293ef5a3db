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

// r16packLink links the workspace's plug directory as Neovim's package
// ~/.local/share/nvim/site/pack/eukhe/start/eukhe (eukhe's README's
// setup) and gives the plugin file an agent would write.
func r16packLink(t *testing.T, home, root string) (evil string) {
	t.Helper()
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "plugin"), 0o755))
	start := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plug, filepath.Join(start, "eukhe")))
	return filepath.Join(plug, "plugin", "evil.lua")
}

// Attack (target 5: linkedDots' budget, after the fifteenth red team's
// fix): the fifteenth's flood of the home again, with DIRECTORIES in
// place of files: 20 001 empty directories directly in the home
// (non-dot names: writes outside the workspace, neither protected nor
// secret, unasked where outside is in the auto set and protected is
// not). The next policy's linkedDots lists the home first; each
// directory costs a whole entry (only a FILE costs a sixteenth now), so
// the budget is gone before the second level, and the README's Neovim
// package link (~/.local/share/nvim/site/pack/eukhe/start/eukhe, into
// the workspace's plug) is never looked at.
// THROUGH (severity high, as the fifteenth's: the flood is unasked; then
// a plugin file Neovim runs at every start is a plain workspace write):
// plug/plugin/evil.lua writes as Inside.
// Root cause: linkedDots still charges its budget for entries it never
// walks (a non-dot name of the home is skipped after `budget--`), and a
// budget cut still says nothing (no fallback). The fix of the fifteenth
// priced one kind of filler (files), not the cause. At the root: charge
// only what is walked (test the home's non-dot names and the uncovered
// places BEFORE taking from the budget: they are free), and when the
// bound is hit, fail closed (every write into the workspace protected
// until a complete walk, or keep the last complete walk's rules).
func TestRedteam16_AgentDirFloodOfTheHomeHidesTheLinkedNvimPack(t *testing.T) {
	_, home, root := redHome(t)
	evil := r16packLink(t, home, root)
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, evil)); c < ClassProtected {
		t.Fatalf("control: before the flood the plugin file writes as %v", c)
	}
	if c := before.ClassWrite(before.Resolve(root, filepath.Join(home, "d00000"))); c >= ClassProtected {
		t.Fatalf("control: a directory made directly in the home writes as %v: the flood would be asked", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		must(t, os.Mkdir(filepath.Join(home, fmt.Sprintf("d%05d", i)), 0o755))
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, evil)); c < ClassProtected {
		t.Errorf("THROUGH: after the agent's flood of the home with directories, a plugin file Neovim runs (pack/eukhe/start/eukhe) writes as %v", c)
	}
}

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
