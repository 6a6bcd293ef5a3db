package agent

import (
	"context"
	"encoding/json"
	"net"
	"sync"

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

// Ask sends p and waits for its answer; ok is false when the line could
// not be written, the terminal left or ctx ended first.
func (t *Terminal) Ask(ctx context.Context, p protocol.ApproveParams) (answer string, ok bool) {
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

// Settled tells the terminal the question p names no longer waits.
func (t *Terminal) Settled(p protocol.ApprovalSettledParams) {
	_ = t.send(protocol.MethodApprovalSettled, p)
}

// Leave marks the terminal gone: every Ask waiting on it returns.
func (t *Terminal) Leave() { t.once.Do(func() { close(t.gone) }) }
