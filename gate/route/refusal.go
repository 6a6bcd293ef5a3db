package route

import (
	"context"

	"github.com/eukhe/eukhe/gate"
)

// RefusalText is the refusal text (gate.Refusal, S7.8's one renderer)
// with the chain's hint and the client it could not ask, if any; auto is
// what the auto set holds (its next step names only what it lacks).
func (c Chain) RefusalText(verb string, effs, auto gate.Effects, a gate.Answer) string {
	return (&gate.Refusal{Verb: verb, Effects: effs, Answer: a, Hint: c.Hint(), Unheard: c.Unheard(), Auto: auto}).Error()
}

// RefusalTextAt is RefusalText for a question asked on ctx: a cell's call
// gets the cell's refusal (gate.IsInCell).
func (c Chain) RefusalTextAt(ctx context.Context, verb string, effs, auto gate.Effects, a gate.Answer) string {
	if gate.IsInCell(ctx) && a == gate.Unanswered {
		return (&gate.Refusal{Verb: verb, Effects: effs, Answer: a, InCell: true}).Error()
	}
	return c.RefusalText(verb, effs, auto, a)
}
