package agent

import (
	"context"
	"encoding/json"
	"net"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/protocol"
)

// Terminal is one `eukhe approvals` connection on an approvals endpoint:
// a headless session's (Terminals) or the editor's server's (package
// lsp). A question goes out as an eukhe/approve line and waits for the
// answer line carrying its id; Leave ends every wait.
type Terminal struct {
	c    net.Conn
	wmu  sync.Mutex // one line written at a time
	mu   sync.Mutex
	wait map[string]chan string // question id → its answer
	once sync.Once
	gone chan struct{}
}

// NewTerminal is the terminal on c.
func NewTerminal(c net.Conn) *Terminal {
	return &Terminal{c: c, wait: map[string]chan string{}, gone: make(chan struct{})}
}

// SendLine writes v as one JSON line.
func (t *Terminal) SendLine(v any) error {
	b, _ := json.Marshal(v)
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.c.Write(append(b, '\n'))
	return err
}

func (t *Terminal) send(method string, params any) error {
	b, _ := json.Marshal(params)
	return t.SendLine(protocol.TerminalLine{Method: method, Params: b})
}

// Ask sends q as an eukhe/approve line and waits for its answer line
// (Client); ok is false when the line could not be written, the terminal
// left or ctx ended first.
func (t *Terminal) Ask(ctx context.Context, q Asked) (Reply, bool) {
	wire, ok := t.askWire(ctx, ApproveParamsOf(q))
	return ReplyOfWire(wire), ok
}

func (t *Terminal) askWire(ctx context.Context, p protocol.ApproveParams) (answer string, ok bool) {
	ch := make(chan string, 1)
	t.mu.Lock()
	t.wait[p.ID] = ch
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.wait, p.ID)
		t.mu.Unlock()
	}()
	if t.send(protocol.MethodApprove, p) != nil {
		return "", false
	}
	select {
	case a := <-ch:
		return a, true
	case <-t.gone:
	case <-ctx.Done():
	}
	return "", false
}

// Answer hands a's answer to the question waiting for it; an answer no
// question waits for (or a second one) is dropped.
func (t *Terminal) Answer(a protocol.TerminalAnswer) {
	t.mu.Lock()
	ch := t.wait[a.ID]
	t.mu.Unlock()
	if ch != nil {
		select {
		case ch <- a.Answer:
		default:
		}
	}
}

// Settled tells the terminal the question q no longer waits, with an
// eukhe/approvalSettled line (Client).
func (t *Terminal) Settled(q Asked, how Settlement) {
	_ = t.send(protocol.MethodApprovalSettled, SettledParamsOf(q, how))
}

// Leave marks the terminal gone: every Ask waiting on it returns.
func (t *Terminal) Leave() { t.once.Do(func() { close(t.gone) }) }

// The eukhe/approve wire, shared by the terminals and the editor: a
// question as ApproveParams, an answer string as a Reply, a settlement as
// ApprovalSettledParams.

// ApproveOffers are the answers a dialog may offer for these effects,
// deny first (a client that pre-selects the first one denies on Enter
// alone); approve_session only where route.SessionGrantable.
func ApproveOffers(effs gate.Effects) []string {
	o := []string{protocol.AnswerDeny, protocol.AnswerApprove}
	if route.SessionGrantable(effs) {
		o = append(o, protocol.AnswerApproveSession)
	}
	return o
}

// ApproveParamsOf is q as an eukhe/approve request.
func ApproveParamsOf(q Asked) protocol.ApproveParams {
	p := protocol.ApproveParams{ID: q.ID, Session: q.Session, Agent: q.Agent,
		Text: q.What, Cwd: q.Cwd, Effects: append([]string{}, q.Effects.Names()...), Step: q.Step, Cell: q.Cell,
		Offers: ApproveOffers(q.Effects)}
	if !q.Deadline.IsZero() {
		p.Deadline = q.Deadline.UTC().Format(time.RFC3339Nano)
	}
	return p
}

// ReplyOfWire is an eukhe/approve answer as a Reply: approve runs,
// approve_session runs and asks for the grant, anything else (a
// dismissed dialog too) denies.
func ReplyOfWire(wire string) Reply {
	switch wire {
	case protocol.AnswerApprove:
		return Reply{Answer: gate.Approve}
	case protocol.AnswerApproveSession:
		return Reply{Answer: gate.Approve, ForSession: true}
	}
	return Reply{Answer: gate.Deny}
}

// SettledParamsOf is how q settled as an eukhe/approvalSettled
// notification: the winning answer; on a timeout "unanswered" with the
// reason ("timed out after 120 s"); else "unanswered".
func SettledParamsOf(q Asked, how Settlement) protocol.ApprovalSettledParams {
	p := protocol.ApprovalSettledParams{ID: q.ID, Answer: how.Answer.String()}
	if how.TimedOut > 0 {
		p.Reason = TimedOutText(how.TimedOut)
	}
	return p
}
