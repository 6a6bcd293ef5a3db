package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
)

// instructions tell an MCP client's model what this server is, in a few
// lines; the same for every session, so a prompt cache keeps them.
const instructions = `eukhe: document and shell tools for this workspace. read shows files as [path#TAG] and N:text rows; edit takes a patch on those tags and lands all-or-nothing; write replaces a whole file you have read; grep and glob search; bash runs scripts through the approval gate; dyn reaches every other tool (MCP servers the user configured, editor tools, report_issue).`

// ParentMetaKey names the parent session in initialize's _meta or in the
// client's experimental capabilities ({"eukhe": {"parent": ID}}), for a
// client that cannot pass --parent.
const ParentMetaKey = "eukhe/parent"

// NewMCPServer is an MCP server with eukhe's identity, instructions and
// capabilities and no tool: what a client's initialize is answered with,
// by a session's server (Server) and by eukhe mcp's handshake that asks
// the client for its roots before a session exists (the same answer, so
// the session's own is dropped).
func NewMCPServer(initialized func(context.Context, *mcp.InitializedRequest)) *mcp.Server {
	return newMCPServer(initialized, nil)
}

// newMCPServer is NewMCPServer, told when the client's roots change.
func newMCPServer(initialized func(context.Context, *mcp.InitializedRequest), rootsChanged func(context.Context, *mcp.RootsListChangedRequest)) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "eukhe", Version: Version}, &mcp.ServerOptions{
		Instructions: instructions,
		// Logging carries job notices (a job that settles after its call
		// returned): the protocol deprecates it (SEP-2577) and keeps it
		// working for at least a year; no other server-to-client notice
		// reaches every client today.
		//lint:ignore SA1019 job notices, see above
		Capabilities:       &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}, Logging: &mcp.LoggingCapabilities{}},
		InitializedHandler: initialized,
		// Roots too are deprecated by SEP-2577 and kept working for at
		// least a year; clients that start servers in / or ~ still send
		// them, and the session says when they change (rootsnote.go).
		//lint:ignore SA1019 roots, see above
		RootsListChangedHandler: rootsChanged,
	})
}

// Server is the MCP server of this session: the fixed roster in order,
// listChanged false (S7.1), each tool's built schema as sent bytes (S7.3),
// and handlers that answer text with isError for a refusal.
func (s *Session) Server() *mcp.Server {
	srv := newMCPServer(s.initialized, s.rootsChanged)
	order := map[string]int{}
	for i, t := range s.roster.Tools() {
		order[t.Name] = i
		tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Wire}
		if t.ReadOnly {
			tool.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		}
		srv.AddTool(tool, s.handler(&s.roster.Tools()[i]))
	}
	// The SDK lists tools by name; the roster is sent in its own order.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/list" && err == nil {
				if lr, ok := res.(*mcp.ListToolsResult); ok {
					sort.SliceStable(lr.Tools, func(i, j int) bool { return order[lr.Tools[i].Name] < order[lr.Tools[j].Name] })
				}
			}
			return res, err
		}
	})
	return srv
}

// handler binds a roster tool to the SDK: the arguments as sent (no
// schema validation on the hot path: the handler decodes strictly), the
// result as MCP content (mcpResult).
func (s *Session) handler(t *Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sink, done := closable(clientProgress(ctx, req))
		r := s.run(docs.WithProgress(ctx, sink), t, req.Params.Arguments)
		done() // no notification after the reply: a client drops the token with it
		return r.mcpResult(), nil
	}
}

// initialized takes the parent from initialize (a client that cannot pass
// --parent): _meta "eukhe/parent", or capabilities.experimental.eukhe.parent.
func (s *Session) initialized(ctx context.Context, req *mcp.InitializedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	s.useClient(req.Session)
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && s.memory != nil {
		if err := s.memory.SetClient(strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)); err != nil {
			s.logf("the transcript of session %s: %v", s.ID, err)
		}
	}
	if s.Parent != "" {
		return
	}
	if p := ParentFrom(req.Session.InitializeParams()); p != "" {
		s.SetParent(p)
		if s.memory != nil {
			if err := s.memory.SetParent(s.Parent); err != nil {
				s.logf("the transcript of session %s: %v", s.ID, err)
			}
		}
	}
}

// ParentFrom reads the parent session named in initialize's parameters.
func ParentFrom(p *mcp.InitializeParams) string {
	if p == nil {
		return ""
	}
	if v, ok := p.Meta[ParentMetaKey].(string); ok {
		return v
	}
	if p.Capabilities != nil {
		if e, ok := p.Capabilities.Experimental["eukhe"].(map[string]any); ok {
			if v, ok := e["parent"].(string); ok {
				return v
			}
		}
	}
	return ""
}

// Serve runs one session over a transport until the peer leaves or ctx
// ends: the session opens (its roster fixed) before the first request.
func Serve(ctx context.Context, t mcp.Transport, o Options) error {
	s, err := Open(o)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Serve(ctx, t)
}

// Serve runs this open session over a transport until the peer leaves or
// ctx ends; the caller closes the session.
func (s *Session) Serve(ctx context.Context, t mcp.Transport) error {
	defer s.dropClient()
	defer s.closeTranscript()
	ss, err := s.Server().Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("eukhe mcp: connecting: %v", err)
	}
	s.SetNotify(func(text string) {
		// A job settles after its call returned: the notice goes under
		// the connection's context, so it is dropped once that ends.
		//lint:ignore SA1019 job notices go as log messages (see Server)
		ss.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "eukhe.jobs", Data: text})
	})
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		ss.Close()
		select { // a read blocked on input the runtime cannot poll may not end
		case <-done:
		case <-time.After(2 * time.Second):
		}
		return nil
	}
}
