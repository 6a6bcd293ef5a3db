package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
)

// dyn (S7.2): without name it lists the dynamic tools; with name and
// arguments it runs one. The dynamic tools are report_issue, the host
// tools joined now, and mcp/SERVER/TOOL for each tool of each configured
// MCP server.

type dynArgs struct {
	I         string          `json:"i"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// dynBound bounds what dyn returns, as a read is bounded.
const dynBound = docs.DefaultReadBound

func handleDyn(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a dynArgs
	if err := docs.DecodeArgs("dyn", s.params("dyn"), raw, &a); err != nil {
		return badArgs(err)
	}
	args := bytes.TrimSpace(a.Arguments)
	if len(args) > 0 && !bytes.Equal(args, []byte("null")) && args[0] != '{' {
		return badArgsText(fmt.Sprintf("dyn: arguments must be a JSON object of the tool's arguments, not %s", docs.JSONKind(args)))
	}
	if bytes.Equal(args, []byte("null")) {
		args = nil
	}
	if a.Name == "" {
		if len(args) > 0 {
			return badArgsText("dyn: arguments without a name; give the tool's name (call dyn with no arguments to list the tools)")
		}
		return s.dynList(ctx)
	}
	return s.DynCall(ctx, a.Name, args)
}

// DynCall runs one dynamic tool by name: report_issue, a joined host tool,
// or mcp/SERVER/TOOL. A tool that quit is not found (dyn_drops_quit).
func (s *Session) DynCall(ctx context.Context, name string, args json.RawMessage) Result {
	if name == ReportIssue {
		return s.reportIssue(args)
	}
	if server, tool, ok := SplitMCPName(name); ok {
		res, err := s.clients.CallTool(ctx, server, tool, args)
		if err != nil {
			return failure(fmt.Sprintf("%s did not run: %v", name, err))
		}
		text, isErr := renderCall(res)
		return bound(text, dynBound, isErr)
	}
	if t, ok := s.surface.Lookup(name); ok {
		return boundResult(t.Run(ctx, args), dynBound)
	}
	if strings.HasPrefix(name, MCPPrefix) {
		return badArgsText(fmt.Sprintf("dyn: %q is not a tool name: an MCP tool is mcp/SERVER/TOOL", name))
	}
	return badArgsText(fmt.Sprintf("dyn has no tool %q now; call dyn without a name to list the tools", name))
}

// reportIssue stores a report_issue row (S7.4) and only acknowledges.
func (s *Session) reportIssue(args json.RawMessage) Result {
	var a reportArgs
	if err := docs.DecodeArgs(ReportIssue, []string{"tool", "description"}, args, &a); err != nil {
		return badArgs(err)
	}
	if strings.TrimSpace(a.Tool) == "" || strings.TrimSpace(a.Description) == "" {
		return badArgsText(`report_issue needs both "tool" (the tool's name) and "description" (what went wrong)`)
	}
	is := Issue{Type: IssueType, Display: true, Time: time.Now().UTC(), Session: s.ID, Tool: a.Tool, Description: a.Description}
	if s.log != nil {
		if err := s.log.Append(is); err != nil {
			s.logf("report_issue: %v", err)
		}
	}
	s.host.Issue(is)
	return done(ReportAck)
}

// dynList lists every dynamic tool: report_issue, the joined host tools,
// then each configured MCP server's tools (servers listed in parallel, each
// within the call timeout; one that fails is a notice).
func (s *Session) dynList(ctx context.Context) Result {
	var b strings.Builder
	b.WriteString("[dynamic tools; run one with dyn {\"name\": NAME, \"arguments\": {...}}]\n")
	listEntry(&b, ReportIssue, reportDescription, json.RawMessage(reportSchema))
	for _, t := range s.surface.Joined() {
		listEntry(&b, t.Name, t.Description, t.Schema)
	}
	names := s.clients.Names()
	type listed struct {
		tools []*mcp.Tool
		err   error
	}
	out := make([]listed, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].tools, out[i].err = s.clients.ListTools(ctx, n)
		}()
	}
	wg.Wait()
	for i, n := range names {
		if out[i].err != nil {
			fmt.Fprintf(&b, "[mcp/%s/…: its tools cannot be listed: %v]\n", n, out[i].err)
			continue
		}
		for _, t := range out[i].tools {
			schema, _ := json.Marshal(t.InputSchema)
			listEntry(&b, MCPPrefix+n+"/"+t.Name, t.Description, schema)
		}
	}
	return bound(b.String(), dynBound, false)
}

// listEntry writes one tool: its name and description, then its argument
// schema on one line.
func listEntry(b *strings.Builder, name, desc string, schema json.RawMessage) {
	desc = strings.TrimSpace(desc)
	b.WriteString(name)
	if desc != "" {
		b.WriteString(": ")
		b.WriteString(strings.ReplaceAll(desc, "\n", "\n  "))
	}
	b.WriteString("\n  arguments: ")
	var c bytes.Buffer
	if len(schema) == 0 || json.Compact(&c, schema) != nil {
		c.Reset()
		c.WriteString(`{"type":"object"}`)
	}
	b.Write(c.Bytes())
	b.WriteByte('\n')
}

// renderCall is an MCP tool result as text: text parts as they are, other
// parts as notes, structured content as JSON when there is no text.
func renderCall(res *mcp.CallToolResult) (string, bool) {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, renderContent(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "[the tool returned no content]")
	}
	return strings.Join(parts, "\n"), res.IsError
}

func renderContent(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return imageNote(c.MIMEType, len(c.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", c.MIMEType, len(c.Data))
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", c.URI, c.Name)
	case *mcp.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Text != "" || r.Blob == nil {
				return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
			}
			return fmt.Sprintf("[resource %s: %s, %d bytes of binary data]", r.URI, r.MIMEType, len(r.Blob))
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// bound keeps text within n bytes: the first part, then a notice of what
// was cut. The notice is in brackets, never a row.
func bound(text string, n int, f bool) Result {
	o := Done
	if f {
		o = Failed
	}
	return boundResult(TextResult(o, text), n)
}

// boundResult keeps a dynamic tool's text within n bytes (bound); its
// outcome stays, and so do its images (they are not text the bound
// counts).
func boundResult(r Result, n int) Result {
	text := r.Text()
	if len(text) <= n {
		return r
	}
	cut := n
	for cut > 0 && cut < len(text) && (text[cut]&0xC0) == 0x80 {
		cut--
	}
	r.Parts = []Part{{Kind: TextPart, Text: fmt.Sprintf("%s\n[cut: %d more bytes not shown]", text[:cut], len(text)-cut)}}
	return r
}
