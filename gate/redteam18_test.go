package gate

// The eighteenth red team's attacks on the gate that HELD (the open ones
// are in redteam18_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// r18secretLink is home/.ssh/id (a secret) and root/<dir>/key, another
// name (a hard link) of it in the workspace.
func r18secretLink(t *testing.T, dir string) (ssh, root, key string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	ssh, root = filepath.Join(base, "home", ".ssh"), filepath.Join(base, "root")
	must(t, os.MkdirAll(ssh, 0o700))
	must(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
	must(t, os.WriteFile(filepath.Join(ssh, "id"), []byte("SECRET"), 0o644))
	key = filepath.Join(root, dir, "key")
	must(t, os.Link(filepath.Join(ssh, "id"), key))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, dir), 0o755) })
	return ssh, root, key
}

// Attack (target a): a directory of the user's in the workspace with
// search but no read (--x, -wx: its entries reachable by name, not
// listed), read but no search (r--, rw-), or nothing (000), holding a
// hard link of the user's ~/.ssh/id.
// Held: each makes the search blind (gate/linkwalk_unix.go ownBlind in
// walkLinks and walkDirAt): a step is refused.
func TestRedteam18_OwnSearchOnlyDirectoryIsBlind(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_OwnSearchOnlyDirectoryIsBlind") {
		return
	}
	for _, mode := range []os.FileMode{0o100, 0o300, 0o400, 0o600, 0} {
		ssh, root, key := r18secretLink(t, "dotfiles")
		must(t, os.Chmod(filepath.Join(root, "dotfiles"), mode))
		r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{ssh}, []int{-1}, []string{root}, []string{root}, nil)
		if !slices.Contains(r.Links, key) && (r.Blind == "" || r.Complete) {
			t.Errorf("mode %o: the search is not blind: %+v", mode, r)
		}
	}
}

// Attack (target a): the secret place itself holds a directory of the
// user's shut (~/.ssh/locked, mode 000) with a file that has another
// name in the workspace: the walk of the secret place cannot see the
// file, so would not know to look for its other name.
// Held: the walk of the top is blind (SearchFrom's Blind set): a step is
// refused (agent/shell blindRefusal; every step while the user keeps the
// directory shut, which fails closed).
func TestRedteam18_BlindDirectoryInTheSecretPlace(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_BlindDirectoryInTheSecretPlace") {
		return
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	ssh, root := filepath.Join(base, "home", ".ssh"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(ssh, "locked"), 0o700))
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.WriteFile(filepath.Join(ssh, "locked", "id"), []byte("SECRET"), 0o644))
	key := filepath.Join(root, "key")
	must(t, os.Link(filepath.Join(ssh, "locked", "id"), key))
	must(t, os.Chmod(filepath.Join(ssh, "locked"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(ssh, "locked"), 0o755) })
	r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{ssh}, []int{-1}, []string{root}, []string{root}, nil)
	if !slices.Contains(r.Links, key) && r.Blind == "" {
		t.Errorf("the workspace name of a secret in an unreadable directory of the secret place is neither found nor blind: %+v", r)
	}
}

// Attack (target a): the workspace's .git shut (chmod 000, a workspace
// change a step may make): the protected top .git/hooks is then
// "missing" to protectedTops (its Kind by a stat that fails) and its
// Lstat in walkLinks fails (EACCES, returned as complete). notes.txt is
// another name of .git/hooks/pre-commit; the agent writes it with the
// write tool.
// Held: the write is protected (a file with other names whose names
// cannot all be seen: the roots' walk meets .git blind).
func TestRedteam18_GitDirectoryShutHidesTheHooksTop(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_GitDirectoryShutHidesTheHooksTop") {
		return
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(base, "root")
	hooks := filepath.Join(root, ".git", "hooks")
	must(t, os.MkdirAll(hooks, 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\n"), 0o755))
	notes := filepath.Join(root, "notes.txt")
	must(t, os.Link(filepath.Join(hooks, "pre-commit"), notes))
	p := Places{Roots: []string{root}, Home: filepath.Join(base, "home")}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, notes)); c != ClassProtected {
		t.Fatalf("control: a write of notes.txt (a hook's other name) is %v", c)
	}
	must(t, os.Chmod(filepath.Join(root, ".git"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, ".git"), 0o755) })
	p = Places{Roots: []string{root}, Home: filepath.Join(base, "home")}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, notes)); c != ClassProtected {
		t.Errorf("with .git shut (chmod 000), a write of notes.txt (the hook's other name) is %v", c)
	}
}
