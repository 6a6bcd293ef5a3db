package gate

import (
	"fmt"
	"strings"
)

// AutoSet is the set of effects a step or access may have and still run
// without a question: the user setting shell.autoEffects (S7.8). It never
// holds Secret: no constructor can put it there.
type AutoSet struct{ effs Effects }

// autoable is every effect but Secret: the names shell.autoEffects accepts.
const autoable = allEffects &^ (1 << Secret)

// DefaultAuto is the auto set with no user setting: every effect but
// secret, so nothing asks but a secret (law default_auto_is_grantable).
func DefaultAuto() AutoSet { return AutoSet{autoable} }

// AutoOf is the auto set of the effects of s an auto set may hold; Secret is dropped.
func AutoOf(s Effects) AutoSet { return AutoSet{s & autoable} }

// ParseAutoSet reads the value of shell.autoEffects. A name other than
// read, write, exec, net, outside and protected is an *AutoEffectError.
func ParseAutoSet(names []string) (AutoSet, error) {
	var s Effects
	for _, n := range names {
		e, ok := ParseEffect(n)
		if !ok || e == Secret {
			return AutoSet{}, &AutoEffectError{Name: n}
		}
		s = s.With(e)
	}
	return AutoSet{s}, nil
}

// AutoEffectError is a name shell.autoEffects cannot hold.
type AutoEffectError struct{ Name string }

func (e *AutoEffectError) Error() string {
	if e.Name == "secret" {
		return `"secret" cannot be in shell.autoEffects: a step that reads or writes a secret always asks; remove it`
	}
	return fmt.Sprintf("%q is not an effect shell.autoEffects can hold; use any of %s",
		e.Name, strings.Join(autoable.Names(), ", "))
}

// Effects is the set the auto set holds.
func (a AutoSet) Effects() Effects { return a.effs }

// Holds reports whether a step or access with these effects runs unasked:
// each effect is in the auto set, and none is secret (laws
// auto_needs_every_effect, auto_never_sensitive).
func (a AutoSet) Holds(effs Effects) bool {
	return !effs.Has(Secret) && effs.SubsetOf(a.effs)
}

// Asks is !Holds: the step or access must be approved before it runs.
func (a AutoSet) Asks(effs Effects) bool { return !a.Holds(effs) }

// String is the names, comma-separated, for messages.
func (a AutoSet) String() string { return strings.Join(a.effs.Names(), ", ") }
