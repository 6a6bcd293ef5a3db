package agent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResourceSource is what mcp:// reads of the session's MCP servers: the MCP
// client manager implements it. It is declared here because the seam's
// other side (resources.go) was not there yet when the URL reader was
// written; whichever declaration came second is to be deleted.
type ResourceSource interface {
	// HasServer tells whether the session configured a server of this name.
	HasServer(name string) bool
	// ListResources lists every resource of a server (all pages).
	ListResources(ctx context.Context, server string) ([]*mcp.Resource, error)
	// ReadResource reads one resource of a server.
	ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error)
}
