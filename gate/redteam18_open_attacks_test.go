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
)

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
