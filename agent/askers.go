package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// The agent's MCP client joins the clients of the session that shows a
// question (DESIGN §5): the host's chain is kept as it is (G5 routing is
// route.Chain's), and each link is wrapped so that the elicitors of the
// sessions at or below it count as interactive clients of that link —
// unless the link has no interactive client of its own and a link above
// has (the editor, `eukhe approvals`, a parent in another process), in
// which case they join that one. So a question is
// asked of the editor, the terminals and the agent's own window at once,
// and the first answer wins.

// clientLink is one link of a session's chain with the agent clients that
// join it.
type clientLink struct {
	i      int
	bases  []route.Asker // every link's own sink, as the host gave them
	owners []string      // the session each link is ("" for the editor's)
	// timeout is the approval timeout in force.
	timeout func() time.Duration
	// root is the headless session's root, for the hint; "" under an
	// editor.
	root string
	// oneShot: the session is one `eukhe tool` call, with no MCP client.
	oneShot bool
}

// withClients wraps the host's chain of session self.
func withClients(chain route.Chain, self string, timeout func() time.Duration, root string, oneShot bool) route.Chain {
	bases := make([]route.Asker, len(chain))
	owners := make([]string, len(chain))
	for i, l := range chain {
		bases[i], owners[i] = l.Asker, l.Name
	}
	if len(owners) > 0 {
		owners[0] = self
	}
	out := make(route.Chain, len(chain))
	for i, l := range chain {
		out[i] = route.Link{Name: l.Name, Asker: &clientLink{i: i, bases: bases, owners: owners, timeout: timeout, root: root, oneShot: oneShot}}
	}
	return out
}

// extras are the elicitors that join this link now: those of the
// sessions at or below it, unless this link has no interactive client of
// its own and a link above has (they join there).
func (c *clientLink) extras() []*Elicitor {
	if c.bases[c.i].Attached().Interactive == 0 {
		for _, b := range c.bases[c.i+1:] {
			if b.Attached().Interactive > 0 {
				return nil
			}
		}
	}
	var es []*Elicitor
	seen := map[*Elicitor]bool{}
	for _, o := range c.owners[:c.i+1] {
		if e := elicitorOf(o); e != nil && !seen[e] && e.on() {
			seen[e] = true
			es = append(es, e)
		}
	}
	return es
}

// Attached is the link's own clients and the elicitors that join it.
func (c *clientLink) Attached() route.Attached {
	a := c.bases[c.i].Attached()
	a.Interactive += len(c.extras())
	return a
}

// Ask asks the link's own clients and the joining elicitors at once; the
// first answer wins and the others are cancelled (an elicitation request
// gets notifications/cancelled, the host's clients a settle notice).
func (c *clientLink) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	a, ok := c.ask(ctx, q)
	markAsked(ctx, q, a, ok)
	if ok && a == gate.Approve && q.Effects.Has(gate.Secret) {
		markSecret(ctx) // the call's result is not kept (memory://)
	}
	return a, ok
}

func (c *clientLink) ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	base := c.bases[c.i]
	es := c.extras()
	if len(es) == 0 {
		return base.Ask(ctx, q)
	}
	extra := make([]Client, 0, len(es)+1)
	for _, e := range es {
		extra = append(extra, e)
	}
	if j, ok := base.(joinable); ok {
		return j.AskWith(ctx, q, extra...)
	}
	// A sink that is no broker (a route.Headless client, a parent in
	// another process) is one more client of this link's question.
	b := &Broker{Timeout: c.timeout}
	return b.AskWith(ctx, q, append([]Client{SinkClient{base}}, extra...)...)
}

// joinable is a sink whose question other clients can join: a Broker.
type joinable interface {
	AskWith(ctx context.Context, q gate.Question, extra ...Client) (gate.Answer, bool)
}

// AnswerHint is what the model is told to ask of the user when no one
// answered (route.Hinter): the agent's own window when its client elicits,
// else `eukhe approvals` in a terminal in the session's directory. Under
// an editor the general sentence stands.
func (c *clientLink) AnswerHint() string {
	if c.root == "" {
		return ""
	}
	e := elicitorOf(c.owners[0])
	if c.bases[c.i].Attached().Interactive > 0 {
		// a terminal (or the editor) was there to answer: the wait ran out
		t := (&Broker{Timeout: c.timeout}).WaitLimit()
		where := "`eukhe approvals`"
		if e != nil && e.on() {
			where += " and your client's window"
		}
		return fmt.Sprintf("The question was shown in %s and %s: ask the user to answer it there when it appears, then try again", where, TimedOutText(t))
	}
	if c.oneShot {
		return fmt.Sprintf("This one-shot call has no client to ask. Ask the user to run `eukhe approvals` in another terminal in %s while the call is made again (it answers the questions of every call on that directory)", c.root)
	}
	return AnswerHint(c.root, e != nil, e != nil && e.On != nil && !e.On())
}

// AnswerHint is the next step of an unanswered refusal in a headless
// session on root: elicits tells whether the agent's client declared
// elicitation, off whether approval.elicitation turned it off.
func AnswerHint(root string, elicits, off bool) string {
	term := fmt.Sprintf("to run `eukhe approvals` in a terminal in %s", root)
	switch {
	case elicits && off:
		return "Ask the user " + term + ", or to set approval.elicitation to true so that your client's window asks them"
	case elicits:
		return "Ask the user to answer eukhe's question in your client's window when it appears (it was not answered in time), or " + term
	}
	return "Ask the user " + term + " (your MCP client does not support elicitation, so it cannot ask them), then try again"
}

// withClients is the host's chain with the agent clients joined.
func (s *Session) withClients(chain route.Chain) route.Chain {
	root := ""
	if _, ok := s.host.(*Headless); ok {
		root = s.host.Root()
	}
	return withClients(chain, s.ID, func() time.Duration { return s.host.Settings().ApprovalTimeout }, root, s.oneShot)
}

// Unheard is the link's own sink's client that cannot be asked, in words
// (route.Unheard), so the refusal can name it through the wrapper.
func (c *clientLink) Unheard() string {
	if u, ok := c.bases[c.i].(route.Unheard); ok {
		return u.Unheard()
	}
	return ""
}
