package gate

import (
	"testing"

	"pgregory.net/rapid"
)

// G5's law of the auto set, which stays in gate (autoset.go); the
// routing laws are gate/route's (laws_route_test.go).

func TestLaw_default_auto_is_grantable(t *testing.T) {
	d := DefaultAuto()
	if d.Effects() != allEffects.Without(Secret) {
		t.Fatalf("default auto set %s, want every effect but secret", d)
	}
	again, err := ParseAutoSet(d.Effects().Names())
	if err != nil || again != d {
		t.Fatalf("the default's names do not read back: %v", err)
	}
	rapid.Check(t, func(t *rapid.T) {
		effs := genEffects(t, "effects")
		if d.Holds(effs) == effs.Has(Secret) {
			t.Fatalf("default auto set on %s: holds=%v", effs, d.Holds(effs))
		}
	})
}
