package lsp

import (
	"context"
	"fmt"
	"sync"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// toolSessions are the sessions eukhe/tool runs on, by name: an LSP client
// alone can read and edit through the editor Store. Each is an agent
// session built as every attached agent's is (agent.Open over this
// server's host), so eukhe/tool runs the same documents gate, with the
// user's settings, asking through the editor's dialogs.
type toolSessions struct {
	mu sync.Mutex
	by map[string]*agent.Session
}

func newToolSessions() *toolSessions { return &toolSessions{by: map[string]*agent.Session{}} }

// session is the named session, opened on first use over the editor Store.
func (s *Server) session(name string) (*agent.Session, error) {
	ts := s.sessions
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t := ts.by[name]; t != nil {
		return t, nil
	}
	a := s.att
	t, err := agent.Open(a.sessionOptions(&host{a: a, root: s.Root(), perCall: true}, ""))
	if err != nil {
		return nil, err
	}
	ts.by[name] = t
	return t, nil
}

// closeAll closes every session opened so far (the server ends): each
// writes its last calls to its transcript and ends its writer, so nothing
// of the server writes after Serve returns (a session left open wrote its
// transcript a moment later, into a state directory being removed).
func (ts *toolSessions) closeAll() {
	ts.mu.Lock()
	by := ts.by
	ts.by = map[string]*agent.Session{}
	ts.mu.Unlock()
	for _, t := range by {
		t.Close()
	}
}

// documentTools are the tools eukhe/tool runs.
var documentTools = map[string]bool{"read": true, "edit": true, "write": true, "grep": true, "glob": true}

// runTool runs one document tool call on a session, under the request's
// context: the connection's, so an editor that goes away stops a long grep
// or walk at its next file. A long call shows $/progress (progress.go).
func (s *Server) runTool(ctx context.Context, p protocol.ToolParams) protocol.ToolResult {
	if !documentTools[p.Name] {
		return protocol.ToolResult{Text: fmt.Sprintf("unknown tool %q: eukhe/tool runs read, edit, write, grep or glob", p.Name), IsError: true}
	}
	t, err := s.session(p.Session)
	if err != nil {
		return protocol.ToolResult{Text: err.Error(), IsError: true}
	}
	res, err := t.Call(docs.WithProgress(ctx, s.progressSink(p.WorkDoneToken)), p.Name, p.Arguments)
	if err != nil {
		return protocol.ToolResult{Text: err.Error(), IsError: true}
	}
	return protocol.ToolResult{Text: res.Text(), IsError: res.Failed()}
}
