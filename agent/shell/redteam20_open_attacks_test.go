//go:build open_attacks && linux

package shell

// The twentieth red team's attacks on the sandbox that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Found by the integrator while checking the shut-root fix (a step's
// chmod of the root): Landlock decides what a path may be opened for,
// not what its metadata may become. A step allowed only read and write
// (in the auto set: run unasked) changes the mode of files and
// directories outside the roots: chmod 0666 of ~/.ssh's key (readable by
// every local user), chmod 0777 of the home, chmod 000 of it (the user's
// own logins fail). Under bubblewrap the same step is refused (the home
// is a read-only bind, the key hidden).
// THROUGH under Landlock (severity high: a write outside without the
// user's yes, and a secret opened to other users).
// Root cause: agent/shell/confine_landlock_linux.go has no rule for
// chmod, chown, setxattr or utimes (no Landlock access right covers them)
// and confine_seccomp_linux.go filters only sockets; a fix needs the
// supervisor to judge those calls' paths (seccomp user notification,
// doing the call itself on the path it resolved, never CONTINUE).
func TestRedteam20_LandlockStepChangesModesOutside(t *testing.T) {
	useMechanism(t, Landlock)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	out := filepath.Join(cw.home, "notes.txt")
	if err := os.WriteFile(out, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := cw.run("chmod 0666 " + out + " " + cw.key + "; chmod 0777 " + cw.home + "; touch -d 2001-01-01 " + out)
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{out, 0o600}, {cw.key, 0o600}, {cw.home, 0o755}} {
		if fi, err := os.Stat(c.path); err != nil || fi.Mode().Perm() != c.want {
			t.Errorf("%s: mode %v, want %v (a step allowed read and write changed it):\n%s", c.path, fi.Mode().Perm(), c.want, res.Text)
		}
	}
	if fi, err := os.Stat(out); err == nil && fi.ModTime().Year() == 2001 {
		t.Errorf("%s: its time was set by the step:\n%s", out, res.Text)
	}
}
