package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// cancelTools makes eukhe/tool requests cancellable by $/cancelRequest
// (LSP): each runs under a context of its own, which the library's
// jsonrpc2.CancelHandler keeps by request id and cancels when a
// $/cancelRequest names it — a grep or glob stops at its next file and
// answers how far it got; an edit already committing finishes.
//
// The tool's context derives from the connection's life
// (jsonrpc2.DetachContext), not from the library's request context: that
// one is pooled, and a context derived from it watches it from a goroutine
// that can outlive the request, which panics once the request is recycled
// (go.lsp.dev/jsonrpc2 v1.0.1; protocol.CancelHandler derives from it, so
// it is not used). The request is released first (jsonrpc2.Async), so the
// tool runs beside later messages as it always did.
func cancelTools(next jsonrpc2.Handler) jsonrpc2.Handler {
	tools, cancel := jsonrpc2.CancelHandler(next)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch {
		case req.Method() == lsproto.MethodCancelRequest:
			var p lsproto.CancelParams
			if lsproto.Unmarshal(req.Params(), &p) == nil {
				switch id := p.ID.(type) {
				case lsproto.Integer:
					cancel(jsonrpc2.NewNumberID(int64(id)))
				case lsproto.String:
					cancel(jsonrpc2.NewStringID(string(id)))
				}
			}
			return nil, nil // a notification: nothing to answer, even when malformed
		case req.Method() == protocol.MethodTool && req.IsCall():
			jsonrpc2.Async(ctx)
			return tools(jsonrpc2.DetachContext(ctx), req)
		}
		return next(ctx, req)
	}
}
