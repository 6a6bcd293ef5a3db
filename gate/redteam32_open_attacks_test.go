//go:build open_attacks && linux

package gate_test

// The thirty-second red team's gate attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open). The
// held ones are in redteam32_held_linux_test.go, with the helpers.

import (
	"github.com/eukhe/eukhe/gate"
	"os"
	"path/filepath"
	"testing"
)

// Attack (another eukhe's state directory; GOT THROUGH, medium): the
// user runs an eukhe in another environment (XDG_STATE_HOME=OTHER, a
// second desktop session, a container's bind mount of the home); the
// session's gate makes secret only its own state directory, so a step
// reads OTHER/eukhe/discovery/key, and with it signs an entry that the
// other eukhe's clients (`eukhe mcp`, `eukhe approvals`) verify and
// attach to. Root cause: the state directory is secret by its path in
// this environment only; the key file has no name rule, as discovery
// entries have (anyEukheRunEntry). Safe outcome: a read of any
// eukhe/discovery/key (and eukhe/*/key) outside the roots is secret.
func TestRedteam32_AnotherEukhesKeyIsNotSecret(t *testing.T) {
	var other string
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		other = filepath.Join(filepath.Dir(home), "other-state")
		must32(t, os.MkdirAll(filepath.Join(other, "eukhe", "discovery"), 0o700))
		must32(t, os.WriteFile(filepath.Join(other, "eukhe", "discovery", "key"), make([]byte, 32), 0o600))
	})
	if e := r32Effects(t, p, root, home, "cat ~/.local/state/eukhe/discovery/key"); !e.Has(gate.Secret) {
		t.Fatalf("control: this eukhe's key is %v", e)
	}
	if e := r32Effects(t, p, root, home, "cat "+filepath.Join(other, "eukhe", "discovery", "key")); !e.Has(gate.Secret) {
		t.Errorf("THROUGH: another eukhe's discovery key is %v, not secret", e)
	}
}
