package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// The approval broker: the gate.Asker of the editor's session, the root of
// every attached agent's chain (G5 routing is gate.Chain's; this is only
// the sink). Its interactive clients are the editor and each `eukhe
// approvals` terminal; terminals attached with gateway are counted as
// gateways and never asked.

// approver is one interactive client.
type approver interface {
	// ask shows the question and waits for the answer; ok is false when
	// the client left (or cannot be asked) without answering.
	ask(ctx context.Context, p protocol.ApproveParams) (answer string, ok bool)
	// settled tells the client the question no longer waits.
	settled(p protocol.ApprovalSettledParams)
}

type broker struct {
	s *Server

	mu       sync.Mutex
	seq      int
	editor   *editorApprover // nil once the editor is gone
	terms    map[*terminal]bool
	gateways int
	// "allow for this session" answers are kept in agent.Grants, the
	// process's one grant store.
}

func newBroker(s *Server) *broker {
	return &broker{s: s, editor: &editorApprover{s: s, gone: make(chan struct{})},
		terms: map[*terminal]bool{}}
}

// Attached counts the editor (while connected) and the terminals.
func (b *broker) Attached() gate.Attached {
	b.mu.Lock()
	defer b.mu.Unlock()
	att := gate.Attached{Interactive: len(b.terms), Gateway: b.gateways}
	if b.editor != nil && b.editor.up() {
		att.Interactive++
	}
	return att
}

// Unheard says, while the editor is connected but cannot show questions,
// that it cannot (gate.Unheard: the agent's refusal text says so).
func (b *broker) Unheard() string {
	b.mu.Lock()
	e := b.editor
	b.mu.Unlock()
	if e == nil {
		return ""
	}
	return e.unheard()
}

// Ask shows q to every interactive client; the first answer wins and the
// others are told it settled. A question no one answers within the
// settings' approval timeout is unanswered; ok is false when every client
// left without answering (gate.Chain then applies the next rule).
func (b *broker) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	if agent.Grants.Covers(q) {
		return gate.Approve, true
	}
	b.mu.Lock()
	b.seq++
	p := protocol.ApproveParams{ID: fmt.Sprintf("q%d", b.seq), Session: q.Session, Agent: q.Agent,
		Text: q.What, Cwd: q.Cwd, Effects: append([]string{}, q.Effects.Names()...), Step: q.Step, Offers: offers(q.Effects)}
	var clients []approver
	if b.editor != nil && b.editor.up() {
		clients = append(clients, b.editor)
	}
	for t := range b.terms {
		clients = append(clients, t)
	}
	b.mu.Unlock()
	if len(clients) == 0 {
		return gate.Unanswered, false
	}
	timeout := b.s.att.settings().ApprovalTimeout
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	p.Deadline = time.Now().Add(timeout).UTC().Format(time.RFC3339Nano)
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type reply struct {
		c      approver
		answer string
		ok     bool
	}
	replies := make(chan reply, len(clients))
	for _, c := range clients {
		go func() {
			a, ok := c.ask(qctx, p)
			replies <- reply{c, a, ok}
		}()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var (
		winner approver
		answer = gate.Unanswered
		wire   = "unanswered"
		ok     = true
	)
wait:
	for left := 0; ; {
		select {
		case r := <-replies:
			if !r.ok {
				if left++; left == len(clients) {
					ok = false
					break wait
				}
				continue
			}
			winner, wire = r.c, r.answer
			switch r.answer {
			case protocol.AnswerApprove:
				answer = gate.Approve
			case protocol.AnswerApproveSession:
				answer, wire = gate.Approve, protocol.AnswerApprove
				agent.Grants.Grant(q)
			default:
				answer, wire = gate.Deny, protocol.AnswerDeny
			}
			break wait
		case <-timer.C:
			break wait
		case <-ctx.Done():
			// another client of the session (the agent's own, through
			// elicitation) may have answered: the others are told its answer
			if a, won := agent.SettledAnswer(ctx); won {
				wire = map[bool]string{true: protocol.AnswerApprove, false: protocol.AnswerDeny}[a == gate.Approve]
			}
			break wait
		}
	}
	cancel()
	for _, c := range clients {
		if c != winner {
			c.settled(protocol.ApprovalSettledParams{ID: p.ID, Answer: wire})
		}
	}
	return answer, ok
}

// forget drops a session's remembered approvals when it ends.
func (b *broker) forget(session string) {
	agent.Grants.Forget(session)
}

// editorGone ends the editor's part: its pending questions end at once.
func (b *broker) editorGone() {
	b.mu.Lock()
	e := b.editor
	b.editor = nil
	b.mu.Unlock()
	if e != nil {
		e.close()
	}
}

// offers are the answers a dialog may offer for these effects, deny first:
// a client that pre-selects the first one denies on Enter alone.
func offers(effs gate.Effects) []string {
	o := []string{protocol.AnswerDeny, protocol.AnswerApprove}
	if gate.SessionGrantable(effs) {
		o = append(o, protocol.AnswerApproveSession)
	}
	return o
}
