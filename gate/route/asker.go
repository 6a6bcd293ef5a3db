package route

import (
	"context"

	"github.com/eukhe/eukhe/gate"
)

// Asker is one session's approval sink: who is attached, and a way to ask
// its interactive clients. The editor implements it; Headless is the one
// without an editor.
type Asker interface {
	// Attached is who is attached now.
	Attached() Attached
	// Ask shows q to the interactive clients and waits for the first
	// answer. ok is false when every interactive client left without
	// answering; a client that does not answer in time answers Unanswered.
	Ask(ctx context.Context, q gate.Question) (a gate.Answer, ok bool)
}

// Unheard is an Asker with a client attached that cannot be asked (an
// editor that cannot show dialogs). Such a client is not counted in
// Attached, so a question goes to the other clients or ends at once; the
// refusal text then says why no one answered.
type Unheard interface {
	// Unheard is "" when every attached client can be asked, else what
	// cannot, in words: "the editor (helix) cannot show questions".
	Unheard() string
}

// Headless is the sink of a session with no editor: a question is
// unanswered unless a client is attached. Client, when set, is that client.
type Headless struct {
	Client func(ctx context.Context, q gate.Question) gate.Answer
}

// Attached is one interactive client when Client is set, else none.
func (h Headless) Attached() Attached {
	if h.Client != nil {
		return Attached{Interactive: 1}
	}
	return Attached{}
}

// Ask asks Client, or is not answered.
func (h Headless) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	if h.Client == nil {
		return gate.Unanswered, false
	}
	return h.Client(ctx, q), true
}

// Chain is the sessions a question can reach, from the one that asks up to
// its root, each with its sink and its name (a subagent's name, shown on
// the frames its relayed questions make).
type Chain []Link

// Link is one session of a Chain.
type Link struct {
	Name  string
	Asker Asker
}

// Hinter is an Asker that can tell how its session's user can answer a
// question now (Chain.Hint).
type Hinter interface {
	AnswerHint() string
}

// Hint is the first session's hint, when its sink has one: the next step
// an unanswered refusal gives the model.
func (c Chain) Hint() string {
	if len(c) > 0 {
		if h, ok := c[0].Asker.(Hinter); ok {
			return h.AnswerHint()
		}
	}
	return ""
}

// Ask routes q up the chain (G5) with Next and GatewayRule, and returns the
// answer. A frame at the first session is its own question; a relayed one
// names the first session as Agent.
func (c Chain) Ask(ctx context.Context, q gate.Question) gate.Answer {
	if gate.IsInCell(ctx) {
		return gate.Unanswered // a cell's call asks nothing (gate cell.go)
	}
	for i, l := range c {
		root := i == len(c)-1
		frame := q
		if i > 0 && frame.Agent == "" {
			frame.Agent = c[0].Name
		}
		att := l.Asker.Attached()
		act := Next(att, root)
		if act == ShowClients {
			if a, ok := l.Asker.Ask(ctx, frame); ok {
				return a
			}
			if ctx.Err() != nil {
				return gate.Unanswered
			}
			att = l.Asker.Attached()
			att.Interactive = 0
			act = Next(att, root)
		}
		switch act {
		case ByGatewayRule:
			return GatewayRule(q.Effects)
		case NoOneAnswers:
			return gate.Unanswered
		}
	}
	return gate.Unanswered
}

// Unheard is the first of the chain's sinks that has a client it cannot
// ask, in words; "" when there is none.
func (c Chain) Unheard() string {
	for _, l := range c {
		if u, ok := l.Asker.(Unheard); ok {
			if s := u.Unheard(); s != "" {
				return s
			}
		}
	}
	return ""
}

// Decide is the gate of one step, cell or access (S7.8, G5): it runs
// unasked when the auto set holds its effects; else the chain's answer
// decides. asked tells whether a question went out.
func Decide(ctx context.Context, auto gate.AutoSet, effs gate.Effects, c Chain, q gate.Question) (a gate.Answer, asked bool) {
	if auto.Holds(effs) {
		return gate.Approve, false
	}
	q.Effects = effs
	return c.Ask(ctx, q), true
}
