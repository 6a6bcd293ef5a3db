//go:build open_attacks

package vim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/internal/testkit"
)

// OPEN: a step that needs the user's approval, asked while the agent is
// attached to Vim with ALE, waits unseen for the whole approval timeout
// (approval.timeoutSeconds, 120 s by default), then counts as a no.
// Cause: with no eukhe/approve method, eukhe asks with
// window/showMessageRequest (lsp/dialogs.go firstDialog), and falls to
// "the editor cannot show questions" (noDialog: the questions go to
// `eukhe approvals`, and the agent is told at once) only when the client
// answers it "method not found" (afterFailure). ALE answers no request
// from the server at all: lsp_linter.vim handles window/showMessage and
// publishDiagnostics only, so the request is dropped, Vim shows nothing,
// and eukhe cannot tell a client that dropped it from a user who has not
// answered yet. ALE declares no window capability in initialize, but
// neither does every client that does answer (so the capability alone
// cannot decide). A fix needs eukhe to learn that the client answers no
// request: e.g. a request of its own at initialized that any client
// following the LSP answers ("method not found" counts), unanswered after
// a few seconds marking the dialog unusable and saying so with
// window/showMessage, which ALE does show.
func TestOpenAGatedStepInVimWithALEIsNotLeftWaitingUnseen(t *testing.T) {
	w := testkit.NewWorkspace(t, map[string]string{"a.txt": "a one\n"}, `{"shell.autoEffects": ["read", "write"]}`)
	s := startVim(t, w, "a.txt")
	s.waitShown(t, "Vim started", "a one")
	s.server(t)
	ag := attach(t, s)
	ag.readUntil(t, "a.txt", "1:a one")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	start := time.Now()
	res, err := ag.cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"script": "sh -c 'echo ran > gated.txt'"}})
	if err != nil {
		t.Fatalf("a gated step was left waiting %v with nothing shown in Vim (%v); the question ALE dropped:\n%s\nscreen:\n%s",
			time.Since(start).Round(time.Second), err, lastLine(s.messages("window/showMessageRequest")), s.shown(t))
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), "cannot show questions") {
		t.Errorf("the gated step's result does not say the editor cannot show questions:\n%s", text.String())
	}
	if _, err := os.Stat(filepath.Join(w.Root, "gated.txt")); err == nil {
		t.Errorf("the gated step ran with nobody's approval")
	}
}

func lastLine(msgs []json.RawMessage) string {
	if len(msgs) == 0 {
		return "(none in the trace)"
	}
	return string(msgs[len(msgs)-1])
}
