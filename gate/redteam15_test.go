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
