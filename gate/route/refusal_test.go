package route

import (
	"context"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// hinted is a sink with a hint and a client it cannot ask.
type hinted struct{ Headless }

func (hinted) AnswerHint() string { return "Ask the user to answer in the editor" }
func (hinted) Unheard() string    { return "the editor (helix) cannot show questions" }

// The chain's refusal is gate's one renderer (gate.Refusal), given the
// chain's hint and the client it could not ask; a cell's unanswered call
// gets the cell's refusal.
func TestChainRefusalIsGatesRenderer(t *testing.T) {
	effs := gate.Of(gate.Write, gate.Outside)
	for _, c := range []Chain{nil, {{Asker: Headless{}}}, {{Asker: hinted{}}}, {{Asker: Headless{}}, {Asker: hinted{}}}} {
		for _, a := range []gate.Answer{gate.Unanswered, gate.Approve, gate.Deny, gate.GatewayRefused} {
			want := (&gate.Refusal{Verb: "write /x", Effects: effs, Answer: a, Hint: c.Hint(), Unheard: c.Unheard()}).Error()
			if got := c.RefusalText("write /x", effs, 0, a); got != want {
				t.Errorf("RefusalText = %q, want %q", got, want)
			}
			if got := c.RefusalTextAt(context.Background(), "write /x", effs, 0, a); got != want {
				t.Errorf("RefusalTextAt outside a cell = %q, want %q", got, want)
			}
			inCell := gate.InCell(context.Background())
			if a == gate.Unanswered {
				want = (&gate.Refusal{Verb: "write /x", Effects: effs, Answer: a, InCell: true}).Error()
			}
			if got := c.RefusalTextAt(inCell, "write /x", effs, 0, a); got != want {
				t.Errorf("RefusalTextAt in a cell = %q, want %q", got, want)
			}
		}
	}
	if got := (Chain{{Asker: hinted{}}}).RefusalText("write /x", effs, 0, gate.Unanswered); got !=
		"write /x did not run (write+outside): it needs the user's approval, and no one answered: the editor (helix) cannot show questions. Ask the user to answer in the editor, or to add write and outside to shell.autoEffects; or use read-only steps." {
		t.Errorf("a hinted, unheard chain's refusal: %q", got)
	}
}
