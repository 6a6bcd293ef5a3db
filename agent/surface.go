package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// HostTool is a tool the host contributes while the session runs (an
// editor tool): it joins and quits behind dyn, never in the roster (S7.2).
type HostTool struct {
	Name        string
	Description string
	// Schema is its input schema as JSON; nil is an empty object.
	Schema json.RawMessage
	Run    func(ctx context.Context, args json.RawMessage) Result
}

// Surface is the tools behind dyn that join and quit at run time: the host
// tools. A tool that quit is not reachable (dyn_drops_quit); a joined one
// is (dyn_reaches_joined). A join of a name already joined replaces it.
type Surface struct {
	mu     sync.RWMutex
	joined map[string]HostTool
}

// ReportIssue is the name of the report_issue tool behind dyn (S7.4).
const ReportIssue = "report_issue"

// MCPPrefix starts the dyn name of an MCP server's tool: mcp/SERVER/TOOL.
const MCPPrefix = "mcp/"

// Join makes t reachable through dyn. A host tool cannot take the names
// dyn gives its own tools: report_issue, and mcp/….
func (s *Surface) Join(t HostTool) error {
	switch {
	case t.Name == "":
		return fmt.Errorf("a host tool needs a name")
	case t.Name == ReportIssue || strings.HasPrefix(t.Name, MCPPrefix):
		return fmt.Errorf("host tool %q: report_issue and names under mcp/ belong to dyn itself; choose another name", t.Name)
	case t.Run == nil:
		return fmt.Errorf("host tool %q has no Run", t.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.joined == nil {
		s.joined = map[string]HostTool{}
	}
	s.joined[t.Name] = t
	return nil
}

// Quit makes the named tool unreachable; it reports whether it was joined.
func (s *Surface) Quit(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.joined[name]
	delete(s.joined, name)
	return ok
}

// Lookup finds a joined tool.
func (s *Surface) Lookup(name string) (HostTool, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.joined[name]
	return t, ok
}

// Joined are the joined tools by name.
func (s *Surface) Joined() []HostTool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]HostTool, 0, len(s.joined))
	for _, t := range s.joined {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SplitMCPName splits mcp/SERVER/TOOL; ok is false for any other name.
func SplitMCPName(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, MCPPrefix)
	if !found {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "/")
	return server, tool, ok && server != "" && tool != ""
}
