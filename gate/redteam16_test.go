package gate

// The sixteenth red team's attacks on the gate that HELD (the open ones
// are in redteam16_open_attacks_test.go, build tag open_attacks).

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Attack (target 1: namesAllIn): the roots given nested and repeated
// (a client's roots: the project twice, a folder of it beside it) so
// that the walk of the roots meets a secret's hard link in the workspace
// twice, or not at all: sub/cred (another name of ~/.aws/credentials)
// read with roots [root, root, root/sub], [root/sub, root], [root/sub].
// Held: nested roots are walked with the root above them, repeated ones
// once each, and the count is of distinct paths: the link reads as
// Secret each time.
func TestRedteam16_NestedAndRepeatedRootsKeepASecretLinkSecret(t *testing.T) {
	home, root, cred := r14secretHome(t)
	sub := filepath.Join(root, "sub")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.Link(cred, filepath.Join(sub, "cred")))
	for _, roots := range [][]string{{root, root, sub}, {sub, root}, {sub}, {root, root}} {
		p := Places{Roots: roots, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
		if c := p.ClassRead(p.Resolve(root, filepath.Join(sub, "cred"))); c != ClassSecret {
			t.Errorf("THROUGH: roots %v: sub/cred reads as %v", roots, c)
		}
	}
}

// Attack (target 1: the strangers' change time, a workspace small
// enough for the look; the control of the open rows
// ProtectedLinkedAfterTheKeptWalkWithOutside and …InALargeWorkspace):
// ~/.config (kept: 1 000 entries or more) walked at a first search; the
// user then hard-links ~/.config/nvim/init.lua into the workspace; the
// next search of the roots.
// Held: the new name is a stranger, its change time is after the kept
// walk, and the walk is made again: root/init.lua is found.
func TestRedteam16_ProtectedLinkedAfterTheKeptWalkIsAStranger(t *testing.T) {
	_, home, root := redHome(t)
	conf := filepath.Join(home, ".config")
	fillPlace(t, filepath.Join(conf, "many"), keepWalkFloor)
	init := filepath.Join(conf, "nvim", "init.lua")
	must(t, os.MkdirAll(filepath.Dir(init), 0o755))
	must(t, os.WriteFile(init, []byte("-- mine\n"), 0o644))
	// a stranger from the start, so the first search walks ~/.config and
	// keeps the walk (a file of the workspace with a name in a plain
	// directory outside)
	hardLink(t, filepath.Join(root, "x"), filepath.Join(filepath.Dir(home), "elsewhere", "x"))
	var c LinkCache
	search := func() LinkSearch {
		return c.Search(OS.(InodeFS), []string{conf}, []int{-1}, []string{root}, nil)
	}
	if r := search(); !r.Complete || len(r.Links) != 0 {
		t.Fatalf("control: the first search gives %+v", r)
	}
	must(t, os.Link(init, filepath.Join(root, "init.lua")))
	if r := search(); !slicesContains16(r.Links, filepath.Join(root, "init.lua")) {
		t.Errorf("THROUGH: ~/.config/nvim/init.lua linked into the workspace after the kept walk: the search gives %+v", r)
	}
}

// Attack (target 5: linkedDots' budget): the agent, with outside in the
// auto set and protected not, fills a cache it may write
// (~/.cache/pip, HomeWritable) with 20 001 directories, then the next
// policy looks for the README's Neovim package link.
// Held: a writable cache is one entry of ~/.cache and is not listed: the
// link is found, the plugin file writes as Protected.
func TestRedteam16_AgentFloodOfAWritableCacheLeavesTheNvimPackFound(t *testing.T) {
	_, home, root := redHome(t)
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "plugin"), 0o755))
	start := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plug, filepath.Join(start, "eukhe")))
	pip := filepath.Join(home, ".cache", "pip")
	must(t, os.MkdirAll(pip, 0o755))
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, filepath.Join(pip, "d00000"))); c >= ClassProtected {
		t.Fatalf("control: a directory in ~/.cache/pip writes as %v: the flood would be asked", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		must(t, os.Mkdir(filepath.Join(pip, fmt.Sprintf("d%05d", i)), 0o755))
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(plug, "plugin", "evil.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: after the flood of ~/.cache/pip, the plugin file writes as %v", c)
	}
}

func slicesContains16(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
