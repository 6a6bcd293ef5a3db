package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

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
