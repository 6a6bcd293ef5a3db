package agent

import (
	"bytes"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// An image part reaches an MCP client as image content, in its place
// between the texts; the model's text (and the transcript's) names it.
func TestResultImagePartIsImageContent(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	r := Result{Outcome: Done, Parts: []Part{
		{Kind: TextPart, Text: "out\n"}, {Kind: TextPart, Text: "more\n"},
		{Kind: ImagePart, MIME: "image/png", Data: png},
		{Kind: TextPart, Text: "after\n"},
	}}
	if got, want := r.Text(), "out\nmore\n[image: image/png, 12 bytes]\nafter\n"; got != want {
		t.Fatalf("Text() = %q, want %q", got, want)
	}
	m := r.mcpResult()
	if len(m.Content) != 3 || m.IsError {
		t.Fatalf("content %+v", m.Content)
	}
	if tc, ok := m.Content[0].(*mcp.TextContent); !ok || tc.Text != "out\nmore\n" {
		t.Fatalf("first part %+v", m.Content[0])
	}
	if ic, ok := m.Content[1].(*mcp.ImageContent); !ok || ic.MIMEType != "image/png" || !bytes.Equal(ic.Data, png) {
		t.Fatalf("second part %+v", m.Content[1])
	}
	if tc, ok := m.Content[2].(*mcp.TextContent); !ok || tc.Text != "after\n" {
		t.Fatalf("third part %+v", m.Content[2])
	}
	r.appendText("[notice]\n")
	if got := r.Text(); got != "out\nmore\n[image: image/png, 12 bytes]\nafter\n[notice]\n" {
		t.Fatalf("after a notice: %q", got)
	}
	if m := (Result{}).mcpResult(); len(m.Content) != 1 || m.Content[0].(*mcp.TextContent).Text != "" {
		t.Fatalf("an empty result is %+v", m.Content)
	}
}

// TestLaw_result_keeps_the_tools_isError: whatever a document tool's or
// the shell's result says of its kind, the result's failure is the tool's
// own (a typed outcome never turns an error into a success or back).
func TestLaw_result_keeps_the_tools_isError(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := docs.Result{Text: rapid.String().Draw(t, "text"), Failed: rapid.Bool().Draw(t, "failed"),
			Kind: docs.ResultKind(rapid.IntRange(0, 5).Draw(t, "kind"))}
		if rapid.Bool().Draw(t, "gate") {
			d.Err = &gate.Refusal{Verb: "read x", Effects: gate.Of(gate.Secret), Answer: gate.Deny}
		} else {
			d.Err = errors.New("other")
		}
		r := fromDocs(d)
		if r.Failed() != d.Failed || r.Text() != d.Text {
			t.Fatalf("%+v became %s %q", d, r.Outcome, r.Text())
		}
		endings := []shell.Ending{shell.Finished, shell.Exited, shell.Refused, shell.Detached, shell.Killed, shell.TimedOut, shell.Cancelled, shell.Invalid, "other"}
		s := shell.Result{Text: rapid.String().Draw(t, "out"), Ending: rapid.SampledFrom(endings).Draw(t, "ending"), Failed: rapid.Bool().Draw(t, "sfailed")}
		if r := fromShell(s); r.Failed() != s.Failed || r.Text() != s.Text {
			t.Fatalf("%+v became %s %q", s, r.Outcome, r.Text())
		}
	})
}
