package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// eukhe/tool runs under the request's context, the editor connection's:
// when it is done (the editor went away), a grep does nothing more and
// says it was cancelled; under a live one it searches.
func TestEditorToolRunsUnderTheRequestsContext(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "needle\n")
	// Through the connection first: the session is open, and the server
	// done with initialized, before the call below is made directly.
	if r := e.tool("grep", map[string]any{"pattern": "needle"}); r.IsError || !strings.Contains(r.Text, "1 match in 1 file") {
		t.Fatalf("live: %+v", r)
	}
	args, _ := json.Marshal(map[string]any{"pattern": "needle"})
	p := protocol.ToolParams{Name: "grep", Arguments: args}
	gone, cancel := context.WithCancel(t.Context())
	cancel()
	if r := e.srv.runTool(gone, p); !r.IsError || !strings.Contains(r.Text, "grep . cancelled") || strings.Contains(r.Text, "needle\n") {
		t.Fatalf("cancelled: %+v", r)
	}
}

// $/cancelRequest from the editor cancels the eukhe/tool request it names
// (the client's context ends; the library's Call sends the notification):
// a long grep stops at its next file — its progress ends with fewer files
// searched than the tree holds — and the session answers its next call.
func TestCancelRequestStopsAnEukheToolGrep(t *testing.T) {
	const files = 4000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan string, 1)
	e := newEditor(t, editorOpts{progressEvery: time.Millisecond,
		handle: func(_ context.Context, req *jsonrpc2.Request) (any, error, bool) {
			switch req.Method() {
			case "window/workDoneProgress/create":
				return nil, nil, true
			case "$/progress":
				var p progressParams
				_ = json.Unmarshal(req.Params(), &p)
				switch p.Value.Kind {
				case "report":
					cancel() // the walk is under way: the editor cancels the request
				case "end":
					ended <- p.Value.Message
				}
				return nil, nil, true
			}
			return nil, nil, false
		}})
	for i := range files {
		e.put(fmt.Sprintf("d%02d/f%04d.txt", i%40, i), "alpha\nneedle here\nomega\n")
	}
	args, _ := json.Marshal(map[string]any{"pattern": "needle"})
	params, _ := json.Marshal(protocol.ToolParams{Name: "grep", Arguments: args})
	var raw jsonrpc2.RawMessage
	if err := lsproto.Call(ctx, e.conn, protocol.MethodTool, jsonrpc2.RawMessage(params), &raw); err == nil {
		t.Fatalf("the grep ended before the editor cancelled it: %.300s", raw)
	}
	select {
	case msg := <-ended:
		if msg == fmt.Sprintf("%d files searched", files) || !strings.HasSuffix(msg, "files searched") {
			t.Fatalf("the cancelled grep's progress ended with %q: it walked on", msg)
		}
	case <-time.After(time.Minute):
		t.Fatal("the grep's progress never ended")
	}
	if r := e.tool("grep", map[string]any{"pattern": "needle", "path": "d00/f0000.txt"}); r.IsError || !strings.Contains(r.Text, "needle here") {
		t.Fatalf("the next call: %+v", r)
	}
}
