package urls

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResourceSource is what mcp:// reads of the session's MCP servers:
// package agent's MCP client manager (Clients) implements it.
type ResourceSource interface {
	// HasServer tells whether the session configured a server of this name.
	HasServer(name string) bool
	// ListResources lists every resource of a server (all pages).
	ListResources(ctx context.Context, server string) ([]*mcp.Resource, error)
	// ReadResource reads one resource of a server.
	ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error)
}

// TranscriptSource is what memory:// and agent:// read (DESIGN §11):
// package agent implements it over the session's transcript (memory.go).
// rest is the URL after "scheme://", as written; bound the read's output
// bound in bytes. An error is an *Error.
type TranscriptSource interface {
	// ReadMemory reads memory://rest: this session's calls.
	ReadMemory(raw, rest string, bound int) (string, error)
	// ReadAgent reads agent://rest: a subagent session's calls, for its
	// parent chain only.
	ReadAgent(raw, rest string, bound int) (string, error)
}
