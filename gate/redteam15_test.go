package gate

// The fifteenth red team's attacks on the gate that HELD (the open ones
// are in redteam15_open_attacks_test.go, build tag open_attacks).

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Attack (target 4): the agent's flood of the home (20 001 files directly
// in it, an unasked write outside the workspace) spends linkedDots'
// budget, and ~/.config/nvim, linked into the workspace's nvim by the
// user's dotfiles, is looked for no more.
// Held: a rule names ~/.config/nvim and the policy takes its real path
// (both), whatever linkedDots finds.
func TestRedteam15_AgentFloodOfTheHomeKeepsANamedConfigLinkProtected(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, "nvim"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "nvim"), filepath.Join(home, ".config", "nvim")))
	for i := 0; i <= maxLinkedDotsLook; i++ {
		f, err := os.Create(filepath.Join(home, fmt.Sprintf("f%05d", i)))
		must(t, err)
		f.Close()
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "nvim", "init.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: after the flood, nvim/init.lua (~/.config/nvim) writes as %v", c)
	}
}

// Attack (target 2): eukhe's own settings directory bound into the
// workspace (cfg), and ~/.config bound there (c2), before the policy;
// the settings file and a file beside it judged by those paths.
// Held: the settings file is secret by both, the file beside it
// protected.
func TestRedteam15_SettingsDirMountNamesAreJudged(t *testing.T) {
	home, root, _ := r14secretHome(t)
	cfg, c2 := filepath.Join(root, "cfg"), filepath.Join(root, "c2")
	must(t, os.MkdirAll(cfg, 0o755))
	must(t, os.MkdirAll(c2, 0o755))
	r14mount(t, filepath.Join(home, ".config", "eukhe"), cfg)
	r14mount(t, filepath.Join(home, ".config"), c2)
	p := r14policy(home, root)
	for _, f := range []string{filepath.Join(cfg, "settings.json"), filepath.Join(c2, "eukhe", "settings.json")} {
		if c := p.ClassWrite(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("THROUGH: %s writes as %v", f, c)
		}
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(c2, "eukhe", "x"))); c < ClassProtected {
		t.Errorf("THROUGH: c2/eukhe/x writes as %v", c)
	}
}

// Attack (target 4): the home's configuration reached by a bind mount
// rather than a link: the workspace's nvim directory mounted at
// ~/.config/nvim, and the workspace's plug directory mounted eight
// parts down at ~/.local/share/nvim/site/pack/eukhe/start/eukhe (where a
// link is missed: the open row), before the policy.
// Held: the mount names of the home's dot-rule (placeMountNames of the
// mounts below the home) cover both source directories as that part of
// the home.
func TestRedteam15_HomeConfigByBindMountIsProtected(t *testing.T) {
	_, home, root := redHome(t)
	for _, c := range []struct{ src, dst string }{
		{filepath.Join(root, "nvim"), filepath.Join(home, ".config", "nvim")},
		{filepath.Join(root, "plug"), filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start", "eukhe")},
	} {
		must(t, os.MkdirAll(filepath.Join(c.src, "plugin"), 0o755))
		must(t, os.MkdirAll(c.dst, 0o755))
		r14mount(t, c.src, c.dst)
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, f := range []string{filepath.Join(root, "nvim", "init.lua"), filepath.Join(root, "plug", "plugin", "x.lua")} {
		if c := p.ClassWrite(p.Resolve(root, f)); c < ClassProtected {
			t.Errorf("THROUGH: %s (the home's configuration by a bind mount) writes as %v", f, c)
		}
	}
}

// Held (was open): a directory's files cost a sixteenth of an entry each in linkedDots' budget (their kind comes from the listing).
// Attack (target 4): the agent spends linkedDots' budget itself. With
// protected out of the auto set and outside in it, it writes 20 001
// empty files directly in the home (non-dot names: no dot-directory,
// not protected); the next policy's linkedDots counts every entry of
// the home's first level before any second-level one, so the budget is
// gone before the dotfiles manager's link
// ~/.local/share/nvim/site/pack/mine (into the workspace's plug, found
// without the flood) is looked at. (~/.config/nvim linked the same way
// stays protected: a rule names it, and its real path is taken.)
// THROUGH (severity high: the flood is an unasked write outside the
// workspace; then a plugin file Neovim runs at every start is a plain
// workspace write): the flood writes are not protected, and
// plug/start/p/plugin/evil.lua writes as Inside.
// Root cause: linkedDots counts non-dot names of the home (skipped, never
// walked) against its budget, and a budget cut says nothing (no fallback,
// unlike the hard-link search's "protected past its bound"). At the root:
// count only what is walked (the dot-directories, not the home's other
// names), and when the bound is hit, take every write into the
// workspace as reached through the home's configuration (protected), or
// keep the links found before (a policy made while the home is flooded
// keeps the last complete walk's rules).
func TestRedteam15_AgentFloodOfTheHomeLeavesTheLinkedNvimPackFound(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "start", "p", "plugin"), 0o755))
	pack := filepath.Join(home, ".local", "share", "nvim", "site", "pack")
	must(t, os.MkdirAll(pack, 0o755))
	must(t, os.Symlink(plug, filepath.Join(pack, "mine")))
	evil := filepath.Join(plug, "start", "p", "plugin", "evil.lua")
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, evil)); c < ClassProtected {
		t.Fatalf("control: before the flood the plugin file writes as %v", c)
	}
	if c := before.ClassWrite(before.Resolve(root, filepath.Join(home, "f00000"))); c >= ClassProtected {
		t.Fatalf("control: a file directly in the home writes as %v: the flood would be asked", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		f, err := os.Create(filepath.Join(home, fmt.Sprintf("f%05d", i)))
		must(t, err)
		f.Close()
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, evil)); c < ClassProtected {
		t.Errorf("THROUGH: after the agent's flood of the home, a plugin file Neovim runs (pack/mine) writes as %v", c)
	}
}

// Held (was open): any eukhe's auth.json, sessions/ and journal/ are secret by name (gate anyEukheOwn), as its settings.json was.
// Attack (target 2): the fourteenth red team's premise (another eukhe of
// the same user reads $XDG_CONFIG_HOME/eukhe, set in ~/.bashrc) for the
// credential store beside the settings file: eukhe/auth.json, which the
// policy makes secret in its own config directory (Places.Secrets: "the
// user's auth.json in eukhe's config dir"). Read by its path in another
// config directory (a home dot-directory, a directory outside the home).
// THROUGH (severity medium: a credential store read unasked; the read
// auto set is the default): it reads as Protected or Outside, not
// Secret, while the one in this eukhe's own directory is Secret.
// Root cause: anyGateFile ("eukhe/settings.json") is the one name rule
// the fix added; the other files eukhe keeps secret in its directories
// (auth.json; the state directory's logs) have no name rule. At the
// root: one list of eukhe's own files (settings.json, auth.json, the
// state directory) each secret by its name below an "eukhe" directory,
// as anyGateFile is, not one name.
func TestRedteam15_OtherEukheAuthFileIsSecretByName(t *testing.T) {
	home, root, _ := r14secretHome(t)
	own := filepath.Join(home, ".config", "eukhe", "auth.json")
	must(t, os.WriteFile(own, []byte(`{"token":"x"}`), 0o600))
	p := r14policy(home, root)
	if c := p.ClassRead(p.Resolve(root, own)); c != ClassSecret {
		t.Fatalf("control: this eukhe's own auth.json reads as %v", c)
	}
	for _, f := range []string{
		filepath.Join(home, ".xdg", "eukhe", "auth.json"),
		filepath.Join(filepath.Dir(home), "opt-config", "eukhe", "auth.json"),
	} {
		must(t, os.MkdirAll(filepath.Dir(f), 0o700))
		must(t, os.WriteFile(f, []byte(`{"token":"x"}`), 0o600))
		if c := p.ClassRead(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("THROUGH: another eukhe's auth.json %s reads as %v", f, c)
		}
	}
}

// Held (was open): linkedDots looks three levels below a package directory (pack/NAME/start/PLUGIN) past its depth, so Neovim's ~/.local/share/nvim/site/pack plugins, eight parts down, are found.
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
func TestRedteam15_NvimPluginLinkedAsTheREADMESaysIsProtectedHeld(t *testing.T) {
	needSymlinks(t)
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
