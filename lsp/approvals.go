package lsp

import (
	"sync"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
)

// The editor's approval sink: the root of every attached agent's chain
// (G5 routing is route.Chain's). It is agent.Broker (the one race, the one
// grant store, the one timeout) with this server's clients joined: the
// editor while it can show a question, and each `eukhe approvals`
// terminal; terminals attached with gateway are counted as gateways and
// never asked.
type broker struct {
	agent.Broker
	s *Server

	mu          sync.Mutex
	editor      *editorApprover // nil once the editor is gone
	leaveEditor func()
}

func newBroker(s *Server) *broker {
	b := &broker{s: s, editor: &editorApprover{s: s, gone: make(chan struct{}), deafened: make(chan struct{}), wait: hearingWait}}
	b.Timeout = func() time.Duration { return s.att.settings().ApprovalTimeout }
	b.leaveEditor = b.Join(b.editor)
	return b
}

// listenToEditor finds whether the editor answers requests at all
// (hearing.go), in the background.
func (b *broker) listenToEditor() {
	b.mu.Lock()
	e := b.editor
	b.mu.Unlock()
	if e != nil {
		go e.listen()
	}
}

// Unheard says, while the editor is connected but cannot show questions,
// that it cannot (route.Unheard: the agent's refusal text says so).
func (b *broker) Unheard() string {
	b.mu.Lock()
	e := b.editor
	b.mu.Unlock()
	if e == nil {
		return ""
	}
	return e.unheard()
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
		b.leaveEditor()
		e.close()
	}
}

// offers are the answers a dialog may offer for these effects, deny first
// (agent.ApproveOffers).
func offers(effs gate.Effects) []string { return agent.ApproveOffers(effs) }
