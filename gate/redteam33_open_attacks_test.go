//go:build open_attacks && linux

package gate

// The thirty-third red team's gate attacks that got through when it ran:
// each asserts the safe outcome, so it FAILS while the hole is open (go
// test -tags open_attacks). Helpers: redteam33_held_linux_test.go.

import (
	"path/filepath"
	"testing"
)

// Attack (roles.go, a tree that holds a secret chain's link; OPEN,
// medium): ~/.ssh/config links to ROOT/d/cfglink, a workspace link to
// ROOT/real. `rm d/cfglink` is secret (removing a link a secret path
// resolves through changes what it names), but `rm -rf d`, `mv d d.old`
// and `find d -delete` remove the same link and are plain writes; a next
// step then puts a link of the agent's at d/cfglink through names its
// words never show (an archive, a copy of a tree). Root cause: the
// through-target check (resolveAs, throughParts) is made for a word that
// is the link, never for links below a tree the command removes or moves
// (treeParts walks for protected and secret names only). Safe outcome:
// each of the three is secret. Suggested fix: in the tree walk, and for
// mv's source directories, judge each link met by the class of what
// resolves through it (the learned targets' Via chains), as resolveAs
// does for the word itself.
func TestRedteam33_RemovingADirectoryThatHoldsASecretChainLinkIsPlain(t *testing.T) {
	w := newWorld(t)
	mustMkdir(t, filepath.Join(w.root, "d"))
	r33Write(t, filepath.Join(w.root, "real"), "Host work\n")
	mustLink(t, filepath.Join(w.root, "real"), filepath.Join(w.root, "d", "cfglink"))
	mustLink(t, filepath.Join(w.root, "d", "cfglink"), filepath.Join(w.home, ".ssh", "config"))
	r33Repolicy(w)
	if got := stepEffects(t, w.shell(w.root), "rm d/cfglink"); !got.Has(Secret) {
		t.Fatalf("control: rm d/cfglink is %v", got)
	}
	for _, s := range []string{"rm -rf d", "mv d d.old", "find d -delete"} {
		if got := stepEffects(t, w.shell(w.root), s); !got.Has(Secret) {
			t.Errorf("THROUGH: %s is %v: it removes the link ~/.ssh/config resolves through", s, got)
		}
	}
}

// Attack (roles.go, false positive; OPEN, low): a test fixture of the
// workspace, fix/sshlink, links to ~/.ssh; `rm fix/sshlink` (and
// unlink) asks secret, though nothing in a secret place resolves through
// it, while `rm -rf fix`, which removes the same link, is a plain write.
// Root cause: throughParts counts a removed link's target class whenever
// it is secret, not only when the link lies on the way of a secret path
// (the chain it was made for). Safe outcome: neither is secret (and the
// chain row above stays secret). Suggested fix: count the target's class
// only for a link that is on a learned secret or protected path's way.
func TestRedteam33_RemovingALinkToAStoreAsksSecret(t *testing.T) {
	w := newWorld(t)
	mustMkdir(t, filepath.Join(w.root, "fix"))
	mustLink(t, filepath.Join(w.home, ".ssh"), filepath.Join(w.root, "fix", "sshlink"))
	r33Repolicy(w)
	for _, s := range []string{"rm fix/sshlink", "unlink fix/sshlink"} {
		if got := stepEffects(t, w.shell(w.root), s); got.Has(Secret) {
			t.Errorf("THROUGH (false positive): %s is %v", s, got)
		}
	}
}

// Attack (false positive under the default auto set; OPEN, low): `ls
// ~/.cache`, a home whose cache holds go-build only, asks secret. Root
// cause: a directory "holds a secret" when a store's path lies below it
// (~/.cache/huggingface/token is one) whether or not the store exists;
// a listing shows only what exists. Safe outcome: the listing is not
// secret. Suggested fix: for a read of a directory (a listing, a walk),
// count the stores below it that exist (Kind != KindMissing), as the
// sandbox does (it lists only entries that exist).
func TestRedteam33_ListingACacheWithNoStoreAsksSecret(t *testing.T) {
	w := newWorld(t)
	mustMkdir(t, filepath.Join(w.home, ".cache", "go-build"))
	r33Repolicy(w)
	if got := stepEffects(t, w.shell(w.root), "ls ~/.cache"); got.Has(Secret) {
		t.Errorf("THROUGH (false positive): ls ~/.cache is %v, with no store in it", got)
	}
}
