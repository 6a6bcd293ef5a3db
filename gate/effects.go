package gate

import (
	"fmt"
	"strings"
)

// Effect is one thing a step or a document access can do (S7.8).
type Effect uint8

// The seven effects, in the order they are always listed.
const (
	Read Effect = iota
	Write
	Exec
	Net
	Outside
	Protected
	Secret
	numEffects
)

var effectNames = [numEffects]string{"read", "write", "exec", "net", "outside", "protected", "secret"}

// String is the effect's name as settings and the JSON of `eukhe check` spell it.
func (e Effect) String() string {
	if e < numEffects {
		return effectNames[e]
	}
	return fmt.Sprintf("effect(%d)", uint8(e))
}

// AllEffects lists every effect in the order read, write, exec, net,
// outside, protected, secret.
func AllEffects() []Effect {
	es := make([]Effect, numEffects)
	for i := range es {
		es[i] = Effect(i)
	}
	return es
}

// ParseEffect reads one effect name; ok is false for any other word.
func ParseEffect(name string) (Effect, bool) {
	for i, n := range effectNames {
		if n == name {
			return Effect(i), true
		}
	}
	return 0, false
}

// Effects is a set of effects.
type Effects uint8

// Of is the set of the given effects.
func Of(es ...Effect) Effects {
	var s Effects
	for _, e := range es {
		s |= 1 << e
	}
	return s
}

// Has reports whether e is in the set.
func (s Effects) Has(e Effect) bool { return s&(1<<e) != 0 }

// With is the set plus the given effects.
func (s Effects) With(es ...Effect) Effects { return s | Of(es...) }

// Union is every effect of both sets.
func (s Effects) Union(o Effects) Effects { return s | o }

// Without is the set less the given effects.
func (s Effects) Without(es ...Effect) Effects { return s &^ Of(es...) }

// SubsetOf reports whether every effect of s is in o.
func (s Effects) SubsetOf(o Effects) bool { return s&^o == 0 }

// Empty reports whether the set holds no effect.
func (s Effects) Empty() bool { return s == 0 }

// List is the effects of the set in the order read, write, exec, net,
// outside, protected, secret.
func (s Effects) List() []Effect {
	var es []Effect
	for e := Effect(0); e < numEffects; e++ {
		if s.Has(e) {
			es = append(es, e)
		}
	}
	return es
}

// Names is List spelled as names; never nil, so JSON shows [].
func (s Effects) Names() []string {
	names := []string{}
	for _, e := range s.List() {
		names = append(names, e.String())
	}
	return names
}

// String joins the names with "+", as refusals show them: "write+outside".
func (s Effects) String() string {
	if s == 0 {
		return "none"
	}
	return strings.Join(s.Names(), "+")
}

// allEffects is the set of all seven.
const allEffects = Effects(1<<numEffects - 1)
