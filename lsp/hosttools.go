package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/protocol"
)

// Host tools: the editor lends a tool (eukhe/joinTool) to every attached
// session and every session attached later; agents reach it through dyn
// (agent.Surface); a call runs in the editor through eukhe/runTool.

// joinTool joins a tool on every session; the surface's rules (names dyn
// keeps for itself) refuse a bad name for all of them.
func (s *Server) joinTool(p protocol.JoinToolParams) error {
	t := agent.HostTool{Name: p.Name, Description: p.Description, Schema: p.InputSchema}
	a := s.att
	var probe agent.Surface
	if err := probe.Join(a.bind(t, "")); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "eukhe: "+err.Error())
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tools[t.Name] = t
	for id, sess := range a.sessions {
		_ = sess.Surface().Join(a.bind(t, id))
	}
	return nil
}

// quitTool takes a tool back from every session.
func (s *Server) quitTool(p protocol.QuitToolParams) {
	a := s.att
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.tools, p.Name)
	for _, sess := range a.sessions {
		sess.Surface().Quit(p.Name)
	}
}

// bind gives t the Run of session id: eukhe/runTool to the editor.
func (a *attachments) bind(t agent.HostTool, id string) agent.HostTool {
	s := a.s
	t.Run = func(ctx context.Context, args json.RawMessage) agent.Result {
		_, conn, life, ok := s.editor()
		if !ok {
			return agent.TextResult(agent.Failed, fmt.Sprintf("%s: the editor that lent this tool is gone", t.Name))
		}
		ctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
		defer cancel()
		stop := context.AfterFunc(life, cancel)
		defer stop()
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		var raw jsonrpc2.RawMessage
		if err := call(ctx, conn, protocol.MethodRunTool, protocol.RunToolParams{Name: t.Name, Session: id, Arguments: args}, &raw); err != nil {
			return agent.TextResult(agent.Failed, fmt.Sprintf("%s: the editor did not run it: %v", t.Name, err))
		}
		var res protocol.RunToolResult
		if err := json.Unmarshal(raw, &res); err != nil {
			return agent.TextResult(agent.Failed, fmt.Sprintf("%s: the editor's answer is not a result: %v", t.Name, err))
		}
		o := agent.Done
		if res.IsError {
			o = agent.Failed
		}
		return agent.TextResult(o, res.Text)
	}
	return t
}
