package agent

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
)

// The approval broker (G5, the interleaving the seed leaves to code): one
// question shown to every client of a session at once, the first answer
// wins, the others are told it settled. Routing along the chain of
// sessions is route.Chain's; a Broker is the sink of one link. Every kind
// of client implements Client: the agent's MCP client (Elicitor), an
// `eukhe approvals` terminal (Terminal), the editor (package lsp) and a
// parent session in another process (cmd/eukhe's relay). "Allow for this
// session" is kept in Grants here and nowhere else.

// Client is one way of asking the user.
type Client interface {
	// Ask shows the question and waits for the user's answer. ok is false
	// when the client left, or cannot be asked, without answering. The
	// broker cancels ctx once the question is settled.
	Ask(ctx context.Context, q Asked) (r Reply, ok bool)
	// Settled tells a client that did not win that the question is
	// closed, and how: it drops its dialog.
	Settled(q Asked, how Settlement)
}

// Present is a Client that can be joined yet unable to be asked for a
// while (an editor that cannot show dialogs, an MCP client with
// approval.elicitation off, a parent whose endpoint is gone): the broker
// counts it and asks it only while Present says so.
type Present interface {
	Present() bool
}

// Asked is one question as the broker asks it of its clients.
type Asked struct {
	gate.Question
	// ID names this asking (q1, q2, … per broker); a client's frames and
	// settle notices carry it.
	ID string
	// Deadline is when the question, unanswered, is denied.
	Deadline time.Time
}

// Reply is a client's answer.
type Reply struct {
	// Answer is the user's: Approve or Deny (a parent session may answer
	// Unanswered or GatewayRefused for its chain).
	Answer gate.Answer
	// ForSession is "allow for this session": the broker keeps it in
	// Grants, which keeps it only for a step route.SessionGrantable allows.
	ForSession bool
}

// Settlement is how a question closed, for the clients that did not win.
type Settlement struct {
	// Answered: a client answered, and Answer is its answer.
	Answered bool
	Answer   gate.Answer
	// TimedOut is the wait no answer came within; 0 when the question
	// ended otherwise (answered, every client left, the step ended).
	TimedOut time.Duration
}

// Grants is this process's one store of "allow for this session" answers,
// whichever client gave them: the agent's MCP client, a terminal, the
// editor, a parent session's client for its subagent (route.Grants: a
// grant covers only the step's text, directory, effects and real paths
// as judged, never secret or protected). Only a Broker grants.
var Grants = &route.Grants{}

// Broker is the approval sink of one session (route.Asker): the clients
// that joined it and the gateways counted beside them. The zero Broker
// has no client and waits settings.DefaultApprovalTimeout.
type Broker struct {
	// Timeout is the approval timeout in force; nil or 0 is
	// settings.DefaultApprovalTimeout.
	Timeout func() time.Duration

	mu       sync.Mutex
	seq      int
	clients  []*joined
	gateways int
}

// joined is one client that joined, told apart by its own address (a
// Client may be a value no == compares).
type joined struct{ c Client }

// Join adds c to the clients every question is shown to, until leave.
func (b *Broker) Join(c Client) (leave func()) {
	j := &joined{c}
	b.mu.Lock()
	b.clients = append(b.clients, j)
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			for i, o := range b.clients {
				if o == j {
					b.clients = append(b.clients[:i:i], b.clients[i+1:]...)
					return
				}
			}
		})
	}
}

// JoinGateway counts one phone gateway, until leave: it is never asked
// (G5: the gateway rule answers at once).
func (b *Broker) JoinGateway() (leave func()) {
	b.mu.Lock()
	b.gateways++
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.gateways--
			b.mu.Unlock()
		})
	}
}

// present are the clients that can be asked now.
func (b *Broker) present() []Client {
	b.mu.Lock()
	all := append([]*joined(nil), b.clients...)
	b.mu.Unlock()
	var out []Client
	for _, j := range all {
		if isPresent(j.c) {
			out = append(out, j.c)
		}
	}
	return out
}

func isPresent(c Client) bool {
	p, ok := c.(Present)
	return !ok || p.Present()
}

// Attached counts the clients that can be asked now and the gateways.
func (b *Broker) Attached() route.Attached {
	n := len(b.present())
	b.mu.Lock()
	defer b.mu.Unlock()
	return route.Attached{Interactive: n, Gateway: b.gateways}
}

// WaitLimit is the approval timeout in force.
func (b *Broker) WaitLimit() time.Duration {
	if b.Timeout != nil {
		if t := b.Timeout(); t > 0 {
			return t
		}
	}
	return settings.DefaultApprovalTimeout
}

// Ask shows q to every client (route.Asker).
func (b *Broker) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	return b.AskWith(ctx, q)
}

// AskWith shows q to every client that can be asked now and to extra (the
// agent clients that join this link, askers.go) at once. A step an
// earlier "allow for this session" covers runs unasked. The first answer
// wins: an "allow for this session" is granted, the other clients' asks
// are cancelled and each is told how it settled. No answer within the
// timeout, or ctx ending first, is Unanswered; ok is false when there is
// no client or every client left without answering (route.Chain then
// applies the next rule).
func (b *Broker) AskWith(ctx context.Context, q gate.Question, extra ...Client) (gate.Answer, bool) {
	if Grants.Covers(q) {
		return gate.Approve, true
	}
	clients := b.present()
	for _, c := range extra {
		if isPresent(c) {
			clients = append(clients, c)
		}
	}
	if len(clients) == 0 {
		return gate.Unanswered, false
	}
	timeout := b.WaitLimit()
	b.mu.Lock()
	b.seq++
	asked := Asked{Question: q, ID: fmt.Sprintf("q%d", b.seq), Deadline: time.Now().Add(timeout)}
	b.mu.Unlock()
	reply, how, winner, ok := race(ctx, asked, clients, timeout)
	if winner >= 0 && how.Answer == gate.Approve && reply.ForSession {
		Grants.Grant(q)
	}
	for i, c := range clients {
		if i != winner {
			c.Settled(asked, how)
		}
	}
	return how.Answer, ok
}

// race asks every client at once and gives the first reply, which client
// gave it (-1: none) and how the question settled. The clients' asks are
// cancelled when it returns.
func race(ctx context.Context, q Asked, clients []Client, timeout time.Duration) (r Reply, how Settlement, winner int, ok bool) {
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type reply struct {
		r  Reply
		i  int
		ok bool
	}
	replies := make(chan reply, len(clients))
	for i, c := range clients {
		go func() {
			r, ok := c.Ask(qctx, q)
			replies <- reply{r, i, ok}
		}()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for left := 0; left < len(clients); {
		select {
		case got := <-replies:
			if got.ok {
				return got.r, Settlement{Answered: true, Answer: got.r.Answer}, got.i, true
			}
			left++
		case <-timer.C:
			return Reply{}, Settlement{Answer: gate.Unanswered, TimedOut: timeout}, -1, true
		case <-ctx.Done():
			return Reply{}, Settlement{Answer: gate.Unanswered}, -1, true
		}
	}
	return Reply{}, Settlement{Answer: gate.Unanswered}, -1, false
}

// TimedOutText says how a question that timed out ended, for the clients
// that showed it: "timed out after 120 s".
func TimedOutText(d time.Duration) string {
	return fmt.Sprintf("timed out after %g s", d.Round(100*time.Millisecond).Seconds())
}

// SinkClient is a whole sink asked as one client of a broker (a
// route.Headless client; a parent session's sink): its answer is the
// reply; cancelling its ask is all it needs to drop the question.
type SinkClient struct{ route.Asker }

// Ask asks the sink.
func (s SinkClient) Ask(ctx context.Context, q Asked) (Reply, bool) {
	a, ok := s.Asker.Ask(ctx, q.Question)
	return Reply{Answer: a}, ok
}

// Settled does nothing: the cancelled ask ended the sink's question.
func (SinkClient) Settled(Asked, Settlement) {}

// Present is whether the sink has an interactive client.
func (s SinkClient) Present() bool { return s.Asker.Attached().Interactive > 0 }

// ClientSink is one client as a session's whole sink, asked directly with
// no wait of its own: a parent session in another process, whose own
// clients and timeout decide (G5 relay). Joined by the agent's clients it
// becomes one client of a Broker (SinkClient).
type ClientSink struct{ C Client }

// Attached is one interactive client while it can be asked.
func (s ClientSink) Attached() route.Attached {
	if isPresent(s.C) {
		return route.Attached{Interactive: 1}
	}
	return route.Attached{}
}

// Ask asks the client; its answer is the sink's.
func (s ClientSink) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	r, ok := s.C.Ask(ctx, Asked{Question: q})
	return r.Answer, ok
}
