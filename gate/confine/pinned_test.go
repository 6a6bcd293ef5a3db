package confine

import (
	"testing"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// The law sandbox_pins_the_gate_dirs: each pinned directory (above the
// user settings file) is a mount of its own at its own path, so no
// process can rename, remove or replace it; pinning changes no path's
// reach (what it shows and whether it may be written); and a pinned
// directory is mounted before every place below it. One that does not
// show as itself (under a private /tmp, or hidden) is left alone: what a
// process could rename there is not it.
func TestLaw_sandbox_pins_the_gate_dirs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pl := genPlaces(t)
		allowed := gate.Of(rapid.SliceOfDistinct(rapid.SampledFrom([]gate.Effect{gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected, gate.Secret}),
			func(e gate.Effect) gate.Effect { return e }).Draw(t, "allowed")...)
		plain := Plan(allowed, pl)
		pl.Pinned = subsetOf(t, "pinned", []string{"/home/u/.config/eukhe", "/home/u/.config", "/home/u", "/home", "/tmp/w/home"})
		pinned := Plan(allowed, pl)
		for _, e := range universe {
			if a, b := plain.Reach(e.Path), pinned.Reach(e.Path); a != b {
				t.Fatalf("pinning changed the reach of %s: %+v, pinned %+v", e.Path, a, b)
			}
		}
		for _, d := range pl.Pinned {
			if r := plain.Reach(d); r.Host != d || r.Hidden {
				continue // not there as itself (a private /tmp, hidden): nothing to pin
			}
			at := -1
			for i, m := range pinned.Mounts {
				if (m.Kind == MountRO || m.Kind == MountRW) && m.Dst == d && at < 0 {
					at = i
				}
			}
			if at < 0 {
				t.Fatalf("%s is not a mount of its own: %+v", d, pinned.Mounts)
			}
			for i, m := range pinned.Mounts[:at] {
				if m.Dst != d && under(m.Dst, d) {
					t.Fatalf("mount %d (%+v) below %s comes before it", i, m, d)
				}
			}
		}
	})
}
