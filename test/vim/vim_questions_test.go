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

// A step that needs the user's approval, asked while the agent is
// attached to Vim with ALE, is not left waiting unseen for the whole
// approval timeout (it was: the open row of the first Vim run). ALE
// answers no request from the server (lsp_linter.vim handles
// window/showMessage and publishDiagnostics only), so it dropped the
// window/showMessageRequest unseen, and eukhe fell to "the editor cannot
// show questions" only on "method not found". eukhe now asks every
// editor one plain request at initialized (lsp/hearing.go): an editor
// that has not answered it in a few seconds cannot show questions, the
// question it holds is taken back, and the user is told once with
// window/showMessage, which ALE shows.
func TestAGatedStepInVimWithALEIsNotLeftWaitingUnseen(t *testing.T) {
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
