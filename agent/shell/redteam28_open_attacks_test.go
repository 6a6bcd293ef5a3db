//go:build open_attacks && linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// The twenty-eighth red team's rows that still GET THROUGH: each asserts
// the safe outcome, so it fails while the hole is open. Run with -tags
// open_attacks.

// Attack (target 3's neighbour, the open handler's real-path judgement;
// GOT THROUGH, medium, not from today's change): ~/.ssh/config is a link
// to a dotfiles repository (GNU stow, home-manager). Step 1 plants L to
// ~/.ssh; `cat < L/config` opens ~/.ssh/config's target, whose real path
// is no secret place, and prints it unasked; every question is denied.
// Root cause: as the gate's
// TestRedteam28_StoreFileLinkedOutOfTheStoreIsNotSecret — a path is
// judged by its real path alone, and a store's link out of the store
// makes its target no secret. Safe outcome: the file's text is not printed.
// Still open for a link made AFTER the policy (this row makes it after
// the world's policy; a dotfiles manager run mid-session): a policy takes
// the targets of the links a secret directory holds when it is made
// (gate: linkedOutOf), so the usual setup, linked before the session
// starts, is held (gate: TestRedteam28_StoreFileLinkedOutOfTheStoreIsNotSecret).
// At the root: a path resolved through a secret directory on its way is
// that store's file, whatever its real path.
func TestRedteam28_StoreFileLinkedOutOfTheStoreIsRead(t *testing.T) {
	w := r27TmpWorld(t)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
	dot := filepath.Join(filepath.Dir(w.secret), "dotfiles")
	if err := os.MkdirAll(dot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dot, "ssh_config"), []byte("Host corp\n  ProxyJump SECRET-BASTION\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dot, "ssh_config"), filepath.Join(w.secret, "config")); err != nil {
		t.Fatal(err)
	}
	res := w.run(r28Plant(w, "", w.path("L")) + " && cat < L/config")
	if strings.Contains(res.Text, "SECRET-BASTION") {
		t.Fatalf("~/.ssh/config was read through a planted link, every question denied:\n%s", res.Text)
	}
}
