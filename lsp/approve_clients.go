package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// The two kinds of interactive client: the editor (eukhe/approve, else
// window/showMessageRequest) and an `eukhe approvals` terminal on the
// socket.

// editorApprover asks the editor of this connection.
type editorApprover struct {
	s    *Server
	once sync.Once
	gone chan struct{} // closed at shutdown or when the editor leaves
}

func (e *editorApprover) up() bool {
	select {
	case <-e.gone:
		return false
	default:
	}
	_, _, _, ok := e.s.editor()
	return ok
}

func (e *editorApprover) close() { e.once.Do(func() { close(e.gone) }) }

// The actions of the showMessageRequest fallback; anything else (null: a
// dismissed message) is a denial.
const (
	actionAllow = "Allow"
	actionDeny  = "Deny"
)

func (e *editorApprover) ask(ctx context.Context, p protocol.ApproveParams) (string, bool) {
	client, conn, life, ok := e.s.editor()
	if !ok {
		return "", false
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-e.gone:
		case <-life.Done():
		case <-ctx.Done():
		}
		cancel()
	}()
	if e.s.capabilities().implements(protocol.MethodApprove) {
		var raw jsonrpc2.RawMessage
		if err := call(ctx, conn, protocol.MethodApprove, p, &raw); err != nil {
			return "", false
		}
		var res protocol.ApproveResult
		if json.Unmarshal(raw, &res) != nil {
			return protocol.AnswerDeny, true
		}
		return res.Answer, true
	}
	item, err := client.ShowMessageRequest(ctx, &lsproto.ShowMessageRequestParams{
		Type:    lsproto.MessageTypeWarning,
		Message: questionText(p),
		Actions: []lsproto.MessageActionItem{{Title: actionAllow}, {Title: actionDeny}},
	})
	if err != nil {
		return "", false
	}
	if item != nil && item.Title == actionAllow {
		return protocol.AnswerApprove, true
	}
	return protocol.AnswerDeny, true
}

func (e *editorApprover) settled(p protocol.ApprovalSettledParams) {
	if !e.up() || !e.s.capabilities().implements(protocol.MethodApprove) {
		return // a showMessageRequest cannot be taken back
	}
	_, conn, life, ok := e.s.editor()
	if ok {
		_ = notify(life, conn, protocol.MethodApprovalSettled, p)
	}
}

// questionText is a question in words, for a plain message.
func questionText(p protocol.ApproveParams) string {
	who := "The agent"
	if p.Agent != "" {
		who = "Agent " + p.Agent
	}
	what := "this access"
	if p.Step > 0 {
		what = fmt.Sprintf("step %d", p.Step)
	}
	where := ""
	if p.Cwd != "" {
		where = " in " + p.Cwd
	}
	return fmt.Sprintf("eukhe: %s asks to run %s%s (%s):\n%s", who, what, where, joinEffects(p.Effects), p.Text)
}

func joinEffects(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "+"
		}
		out += n
	}
	return out
}

// terminal is an `eukhe approvals` client on the socket.
type terminal struct {
	c    net.Conn
	wmu  sync.Mutex
	mu   sync.Mutex
	wait map[string]chan string
	gone chan struct{}
}

// termMessage is a line the server sends a terminal.
type termMessage struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// TermAnswer is a line a terminal sends: its answer to a question.
type TermAnswer struct {
	ID     string `json:"id"`
	Answer string `json:"answer"`
}

func (t *terminal) send(method string, params any) error {
	b, _ := json.Marshal(termMessage{method, params})
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.c.Write(append(b, '\n'))
	return err
}

func (t *terminal) ask(ctx context.Context, p protocol.ApproveParams) (string, bool) {
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

func (t *terminal) settled(p protocol.ApprovalSettledParams) {
	_ = t.send(protocol.MethodApprovalSettled, p)
}

// serveTerminal registers a terminal until it leaves: an interactive one
// is asked every question; a gateway only counts as attached (G5: the
// gateway rule answers at once).
func (b *broker) serveTerminal(ctx context.Context, c net.Conn, br *bufio.Reader, gateway bool) {
	t := &terminal{c: c, wait: map[string]chan string{}, gone: make(chan struct{})}
	b.mu.Lock()
	if gateway {
		b.gateways++
	} else {
		b.terms[t] = true
	}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if gateway {
			b.gateways--
		} else {
			delete(b.terms, t)
		}
		b.mu.Unlock()
		close(t.gone)
	}()
	for {
		line, err := readLine(br, maxHello)
		if err != nil || ctx.Err() != nil {
			return
		}
		var a TermAnswer
		if json.Unmarshal(line, &a) != nil {
			continue
		}
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
}
