package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// toolSessions are the document sessions eukhe/tool runs on, by name: an
// LSP client alone can read and edit through the editor Store, as an
// agent will (phase 2 attaches agents' sessions here).
type toolSessions struct {
	mu sync.Mutex
	by map[string]*toolSession
}

type toolSession struct {
	mu    sync.Mutex // one call at a time: docs.Tools is not concurrent
	tools *docs.Tools
}

func newToolSessions() *toolSessions { return &toolSessions{by: map[string]*toolSession{}} }

// session is the named session, made on first use over the editor Store.
func (s *Server) session(name string) *toolSession {
	ts := s.sessions
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.by[name]
	if t == nil {
		t = &toolSession{tools: &docs.Tools{Store: s.store, Session: docs.NewSession(), Root: s.Root()}}
		s.withProgress(t.tools)
		ts.by[name] = t
	}
	return t
}

// runTool runs one document tool call on a session.
func (s *Server) runTool(p protocol.ToolParams) protocol.ToolResult {
	t := s.session(p.Session)
	t.mu.Lock()
	defer t.mu.Unlock()
	res, err := callTool(t.tools, p.Name, p.Arguments)
	if err != nil {
		return protocol.ToolResult{Text: err.Error(), IsError: true}
	}
	return protocol.ToolResult{Text: res.Text, IsError: res.Failed}
}

// callTool runs a document tool for eukhe/tool.
func callTool(t *docs.Tools, name string, args json.RawMessage) (docs.Result, error) {
	res, err := docs.Call(t, name, args)
	if errors.Is(err, docs.ErrUnknownTool) {
		return res, fmt.Errorf("unknown tool %q: eukhe/tool runs read, edit, write, grep or glob", name)
	}
	return res, err
}
