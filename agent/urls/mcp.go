package urls

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/docs"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readMCP is mcp://server (its resource list) and mcp://server/uri (one
// resource). The URI is sent as written; the lexical walk only checks
// that it does not climb above its server.
func (r *Reader) readMCP(ctx context.Context, raw, rest string, bound int) (string, error) {
	server, uri, _ := strings.Cut(rest, "/")
	if server == "" {
		return "", Errorf(KindArguments, raw, "name a server: mcp://<server> lists its resources, mcp://<server>/<uri> reads one")
	}
	if r.Resources == nil || !r.Resources.HasServer(server) {
		return "", Errorf(KindNotAllowed, raw, "%q is not one of this session's MCP servers; the user configures them in mcp.servers of the user settings.json", server)
	}
	if _, ok := WalkPath(uri); !ok {
		return "", Errorf(KindEscapes, raw, "the resource URI climbs above server %s with \"..\"; write the URI as mcp://%s lists it", server, server)
	}
	if uri == "" {
		list, err := r.Resources.ListResources(ctx, server)
		if err != nil {
			return "", mcpErr(ctx, raw, server, err)
		}
		return CutMiddleText(ResourceList(server, list), bound), nil
	}
	res, err := r.Resources.ReadResource(ctx, server, uri)
	if err != nil {
		return "", mcpErr(ctx, raw, server, err)
	}
	return ResourceText(raw, res, bound), nil
}

// ResourceList is the text of mcp://server: one resource a line, its URI,
// name and MIME type separated by tabs ("-" for a missing one).
func ResourceList(server string, list []*mcp.Resource) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[mcp://%s: %s; read mcp://%s/<uri> for one]\n", server, docs.Count(len(list), "resource"), server)
	for _, res := range list {
		if res == nil {
			continue
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", orDash(res.URI), orDash(res.Name), orDash(res.MIMEType))
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// ResourceText is the text of one resource read: a first line naming it,
// each text part as text, each binary (blob) part a note with its size and
// MIME type; the whole cut in the middle past bound bytes.
func ResourceText(raw string, res *mcp.ReadResourceResult, bound int) string {
	var parts []*mcp.ResourceContents
	if res != nil {
		for _, c := range res.Contents {
			if c != nil {
				parts = append(parts, c)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s: an MCP resource, %s; its lines are not edit anchors]\n", raw, docs.Count(len(parts), "part"))
	for i, c := range parts {
		mime := c.MIMEType
		if mime == "" {
			mime = "no MIME type"
		}
		if len(parts) > 1 {
			fmt.Fprintf(&b, "[part %d of %d: %s, %s]\n", i+1, len(parts), c.URI, mime)
		}
		if c.Blob != nil {
			fmt.Fprintf(&b, "[binary part %s: %d bytes, %s; not shown]\n", c.URI, len(c.Blob), mime)
			continue
		}
		b.WriteString(c.Text)
		if c.Text != "" && !strings.HasSuffix(c.Text, "\n") {
			b.WriteByte('\n')
		}
	}
	return CutMiddleText(b.String(), bound)
}

// mcpErr types a failed list or read of an MCP server.
func mcpErr(ctx context.Context, raw, server string, err error) *Error {
	var rpc *jsonrpc.Error
	switch {
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return Errorf(KindTimeout, raw, "MCP server %s did not answer before the deadline; try again (a hung server restarts on the next call)", server)
	case errors.As(err, &rpc) && (rpc.Code == -32002 || strings.Contains(strings.ToLower(rpc.Message), "not found")):
		return Errorf(KindNotFound, raw, "MCP server %s has no such resource (%s); read mcp://%s for its list", server, rpc.Message, server)
	}
	return Errorf(KindIO, raw, "MCP server %s failed: %v", server, err)
}
