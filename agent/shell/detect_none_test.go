package shell

import (
	"strings"
	"testing"
)

// Where eukhe has no mechanism (macOS until Seatbelt is wired in,
// FreeBSD, Windows), Detect is none with the system's reason, whatever
// mechanism is forced; ForceEnv=none and a wrong value say so as on
// Linux. shell.confinement "require" then refuses every program
// (TestRequireRefusesUnconfined).
func TestNoSandboxSaysWhy(t *testing.T) {
	const why = "macOS: Seatbelt is not wired in yet"
	for _, force := range []string{"", string(Bubblewrap), string(Landlock)} {
		if c := noSandbox(force, why); c.Mechanism != Unconfined || c.Why != why {
			t.Errorf("forced %q: %+v", force, c)
		}
	}
	if c := noSandbox("none", why); c.Mechanism != Unconfined || c.Why != ForceEnv+"=none" {
		t.Errorf("forced none: %+v", c)
	}
	if c := noSandbox("seatbelt", why); c.Mechanism != Unconfined || !strings.Contains(c.Why, `"seatbelt" is not`) {
		t.Errorf("a wrong value: %+v", c)
	}
	if s := noSandbox("", why).String(); s != "none ("+why+")" {
		t.Errorf("shown as %q", s)
	}
}
