//go:build open_attacks && linux

package shell

// The eighteenth red team's attacks on the sandbox that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target a): the workspace holds drop/, owned by another uid with
// mode 0711 (others may pass, not list), and in it drop/key, another
// name (a hard link) of the user's ~/.ssh/id_ed25519 (put there by root
// or that user: the agent cannot make it). The walks cannot open drop
// and, it being another user's, pass over it as a directory no step can
// open; but a step needs no listing to open a name it knows.
// THROUGH under bubblewrap (severity low: the layout needs another
// user's or root's hand; what leaks is the SSH key): cat drop/key prints
// the key. Under Landlock the step is refused, the key's name being
// Unfound, with a wrong text ("outside the workspace and the home": it
// is in the workspace).
// Root cause: gate/linkwalk_unix.go ownBlind takes only the user's own
// directory for blind, where any directory the user may search (x by
// others', group's bits, or an ACL) lets a step reach a known name;
// osFS.walkLinks/walkDirAt skip it as empty; under bubblewrap
// agent/shell/sandbox.go hideSecretNames does not refuse for Unfound
// (a name outside the binds is not shown, but this one is in the
// workspace's bind).
func TestRedteam18_OtherUsersPassableDirectoryHidesTheKeysName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam18_OtherUsersPassableDirectoryHidesTheKeysName") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
			drop := cw.path("drop")
			if err := os.MkdirAll(drop, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(cw.key, cw.path("drop/key")); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(drop, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chown(drop, os.Geteuid(), os.Getegid()); os.Chmod(drop, 0o755) })
			if err := os.Chmod(drop, 0o711); err != nil {
				t.Fatal(err)
			}
			if res := cw.run("cat drop/key"); strings.Contains(res.Text, secretText) {
				t.Errorf("the step read the key through its name in another user's passable directory:\n%s", res.Text)
			}
		})
	}
}
