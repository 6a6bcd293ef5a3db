//go:build open_attacks && linux

package gate

// The eighteenth red team's attacks on the gate that GOT THROUGH. Each
// asserts the safe outcome, so it fails while the hole is open. Run with
// -tags open_attacks.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

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
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r18new"))); c != ClassProtected {
		t.Errorf("after r18new is installed (the directory's time kept), a write of tools/r18new is %v", c)
	}
}

// Attack (target a): a directory in the workspace owned by another uid
// that the user may pass through but not list (mode 0711: others --x; or
// 0710 with the user's group), holding drop/key, another name (a hard
// link) of the user's ~/.ssh/id (made by root or that user: the agent
// cannot make it). The walks cannot open it (EACCES), and being another
// user's it is passed over as "no step can open it either"; but a step
// needs no listing to read a name it knows: cat drop/key.
// THROUGH (severity low: the layout needs another user's or root's hand;
// but what is missed is a secret's content, and the look's skip of the
// places outside drops even the Unfound report, so Landlock's refusal of
// an unhidden name goes too): the search of the roots reports no Links,
// no Unfound, Complete, no Blind; the name reads SECRET by name.
// Root cause: gate/linkwalk_unix.go ownBlind takes only the user's own
// directory for blind; a directory another user owns with search (x)
// for the user (others' or group's bits, or an ACL) is reachable by name
// from a step; walkLinks/walkDirAt skip it as empty, and
// gate/links_strangers.go strangersIn then calls the look complete
// (LinkCache.topsWithoutStrangers drops the secret place's walk).
func TestRedteam18_OtherUsersDirectoryPassableByName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_OtherUsersDirectoryPassableByName") {
		return
	}
	for _, c := range []struct {
		gid  int
		mode os.FileMode
	}{{65534, 0o711}, {os.Getegid(), 0o710}} {
		r18otherUsersDirectory(t, c.gid, c.mode)
	}
}

func r18otherUsersDirectory(t *testing.T, gid int, mode os.FileMode) {
	ssh, root, key := r18secretLink(t, "drop")
	drop := filepath.Join(root, "drop")
	must(t, os.Chown(drop, 65534, gid))
	t.Cleanup(func() { os.Chown(drop, os.Geteuid(), os.Getegid()) })
	must(t, os.Chmod(drop, mode))
	if _, err := os.ReadDir(drop); err == nil {
		t.Fatal("control: the directory is listable")
	}
	if b, err := os.ReadFile(key); err != nil || string(b) != "SECRET" {
		t.Fatalf("control: the name is not readable by name: %v", err)
	}
	r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{ssh}, []int{-1}, []string{root}, []string{root}, nil)
	if !slices.Contains(r.Links, key) && r.Blind == "" && r.Complete {
		t.Errorf("the secret's name in another user's --x directory is neither found nor blind (gid %d, mode %o): %+v", gid, mode, r)
	}
}

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
