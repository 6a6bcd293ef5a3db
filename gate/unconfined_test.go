package gate

import (
	"testing"

	"pgregory.net/rapid"
)

// The law unconfined_exec_has_every_reach: where no sandbox confines a
// step's programs, a step with exec also has write, outside, protected
// and net (what an unconfined program can do), never secret (the user is
// told programs run unconfined; a step that names a secret is secret as
// before); a step without exec keeps its effects exactly; and the
// widening only adds.
func TestLaw_unconfined_exec_has_every_reach(t *testing.T) {
	all := []Effect{Read, Write, Exec, Net, Outside, Protected, Secret}
	rapid.Check(t, func(t *rapid.T) {
		e := Of(rapid.SliceOfDistinct(rapid.SampledFrom(all), func(e Effect) Effect { return e }).Draw(t, "effects")...)
		u := Unconfined(e)
		if !e.SubsetOf(u) {
			t.Fatalf("Unconfined(%v) = %v dropped an effect", e, u)
		}
		if u.Has(Secret) != e.Has(Secret) {
			t.Fatalf("Unconfined(%v) = %v changed secret", e, u)
		}
		if !e.Has(Exec) {
			if u != e {
				t.Fatalf("a step without exec: Unconfined(%v) = %v", e, u)
			}
			return
		}
		for _, want := range []Effect{Write, Outside, Protected, Net} {
			if !u.Has(want) {
				t.Fatalf("Unconfined(%v) = %v lacks %v", e, u, want)
			}
		}
	})
}
