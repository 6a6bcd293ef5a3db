package gate

// The eighteenth red team's attacks on the gate that HELD (the open ones
// are in redteam18_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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
	needHardLinkSearch(t)
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
	needHardLinkSearch(t)
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
	needHardLinkSearch(t)
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

// Held (was open): isCommandName stamps each PATH directory with its change time (dirChanged), which cannot be set back
// Attack (target b): the unknown PATH's command names are listed again
// when a PATH directory's modification time moved. The user installs a
// tool during the session in a way that keeps the directory's time (an
// rsync -a or tar x of a tree holding the directory itself, or a touch
// -r/-d of it: the time is the user's to set, unlike the change time);
// the agent then writes tools/<that name> in the workspace.
// THROUGH (severity low: as the seventeenth red team's row, the write
// tool makes no execute bit, and the install must keep the directory's
// time): the write is Inside.
// Root cause: gate/policy.go Policy.isCommandName stamps each directory
// with os.Stat's ModTime (settable by utimensat) where the change time
// (ctime, Stat_t.Ctim) moves with every entry made and cannot be set
// back.
func TestRedteam18_CommandInstalledWithTheDirectoryTimeKept(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "bin")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r18old"), []byte("#!/bin/sh\n"), 0o755))
	old := time.Now().Add(-time.Hour)
	must(t, os.Chtimes(bin, old, old))
	p := Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r18old"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/r18old is %v", c)
	}
	must(t, os.WriteFile(filepath.Join(bin, "r18new"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Chtimes(bin, old, old))
	time.Sleep(2 * commandsFresh) // a look at the directories stands this long
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r18new"))); c != ClassProtected {
		t.Errorf("after r18new is installed (the directory's time kept), a write of tools/r18new is %v", c)
	}
}

// Held (was open): walkLinks takes a top it cannot look at for blind at the user's directory above it (shutAbove)
// Attack (target a): a protected top (here .git/hooks) below a directory
// of the user's that is shut (chmod 000 .git): the search for other names
// of the top's files (notes.txt is a hard link of .git/hooks/pre-commit).
// THROUGH (severity low here: for .git the sandbox's own top is .git
// itself, whose walk is blind, and the write tool's check walks the
// roots: both held, see agent/shell TestRedteam18_ShutGitHidesTheHooks-
// OtherName and TestRedteam18_GitDirectoryShutHidesTheHooksTop; the same
// gap with a Named file below a shut plain directory is open end to end:
// agent/shell TestRedteam18_ShutDirectoryHidesANamedFilesOtherName): the
// search reports no Links, Complete, no Blind.
// Root cause: gate/linkwalk_unix.go osFS.walkLinks returns (true, "")
// when the top's Lstat fails (EACCES: its parent is the user's and shut)
// where ownBlind of the parent would make it blind; with no file found in
// the tops, LinkCache.SearchFrom walks no root (missing == 0) and never
// meets the shut directory.
func TestRedteam18_ShutParentHidesAProtectedTop(t *testing.T) {
	needHardLinkSearch(t)
	if !r17withoutDAC(t, "TestRedteam18_ShutParentHidesAProtectedTop") {
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
	if r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{hooks}, []int{-1}, []string{root}, []string{root}, nil); !slices.Contains(r.Links, notes) {
		t.Fatalf("control: with .git open the other name is not found: %+v", r)
	}
	must(t, os.Chmod(filepath.Join(root, ".git"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, ".git"), 0o755) })
	r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{hooks}, []int{-1}, []string{root}, []string{root}, nil)
	if !slices.Contains(r.Links, notes) && r.Blind == "" && r.Complete {
		t.Errorf("with .git shut, the search of .git/hooks neither finds notes.txt nor is blind: %+v", r)
	}
}

// Held (was open): foldName decomposes a name that is not ASCII (Unicode NFD, golang.org/x/text/unicode/norm) before folding its case.
// Attack (target b): on a volume that folds case and normalizes
// (macOS's APFS, ext4 casefold: both take a name's decomposed form for
// its composed one), the agent writes tools/cafe+U+0301 where a PATH
// directory holds the command caf+U+00E9 (composed).
// THROUGH (severity low: a command named with a letter outside ASCII is
// rare, and needs the case-folding volume): the write is Inside (the
// control, tools/CAF+U+00C9, is protected).
// Root cause: gate/fold.go foldName folds case only, with no Unicode
// normalization; gate/policy.go Policy.isCommandName compares by it.
func TestRedteam18_CaseFoldedCommandNameDecomposed(t *testing.T) {
	root, p := r17foldPolicy(t, "caf\u00e9")
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "CAF\u00c9"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/CAF\u00c9 is %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "cafe\u0301"))); c != ClassProtected {
		t.Errorf("a write of tools/cafe+U+0301 (caf\u00e9 decomposed) is %v", c)
	}
}
