//go:build open_attacks

package gate

// The fourteenth red team's attacks on the gate that GOT THROUGH (run
// with -tags open_attacks). Each test asserts the safe outcome and
// fails while the hole is open.

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Attack (target 1): eukhe's settings directory re-linked to the
// workspace's cfg by the user while the resolution is kept (gateRecheck):
// a write of cfg/settings.json judged at once after.
// THROUGH (severity low: the user makes the link, the step must be
// judged within 100 ms of a judgement before it; a tree search judges
// thousands of paths, so the cache is almost always warm): the write of
// the file eukhe loads its settings from is Inside, unasked.
// Root cause: gateFilesNow keeps one resolution for gateRecheck and
// classOf trusts it; nothing ties the kept answer to the directories'
// change (a ctime or inode of the links above it).
func TestRedteam14_SettingsRelinkWithinRecheck(t *testing.T) {
	home, root, _ := r14secretHome(t)
	p := r14policy(home, root)
	cfg := filepath.Join(root, "cfg")
	must(t, os.MkdirAll(cfg, 0o755))
	target := filepath.Join(cfg, "settings.json")
	if c := p.ClassWrite(p.Resolve(root, target)); c == ClassSecret {
		t.Fatalf("control: cfg/settings.json is secret before the link")
	}
	user := filepath.Join(home, ".config", "eukhe")
	start := time.Now()
	must(t, os.Rename(user, user+".old"))
	must(t, os.Symlink(cfg, user))
	c := p.ClassWrite(p.Resolve(root, target))
	if time.Since(start) < gateRecheck && c != ClassSecret {
		t.Errorf("THROUGH: cfg/settings.json, now eukhe's settings file, is %v within %v of the relink", c, gateRecheck)
	}
}

// Attack (target 3): a linked dot-directory twelve levels below the
// home (past maxLinkedDotsDepth), and one linked after the policy.
// THROUGH (severity low: a link that deep is rare; a link made after
// the policy is the user's or a dotfiles manager's, run while a session
// is open): both targets write as Inside.
// Root cause: linkedDots runs once, in NewPolicy, to a fixed depth;
// a write is not checked for a covered dot-directory link that resolves
// onto it now.
func TestRedteam14_LinkedDotsDeepAndLate(t *testing.T) {
	_, home, root := redHome(t)
	deep := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "a", "start", "b", "lua", "c", "d", "e")
	must(t, os.MkdirAll(filepath.Dir(deep), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "deep"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "deep"), deep))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "deep", "init.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: a lua module Neovim loads (twelve levels down) writes as %v", c)
	}
	must(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "nvim"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "nvim"), filepath.Join(home, ".config", "nvim")))
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "nvim", "init.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: ~/.config/nvim linked after the policy: its init.lua writes as %v", c)
	}
}
