package route

import (
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// allEffects is every effect, as gate's laws draw them.
var allEffects = gate.Of(gate.AllEffects()...)

// genAuto draws any auto set.
func genAuto(t *rapid.T) gate.AutoSet {
	return gate.AutoOf(gate.Effects(rapid.Uint8Range(0, uint8(allEffects)).Draw(t, "auto")))
}

// genEffects draws any set of effects.
func genEffects(t *rapid.T, label string) gate.Effects {
	return gate.Effects(rapid.Uint8Range(0, uint8(allEffects)).Draw(t, label))
}
