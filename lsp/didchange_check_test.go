package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A didChange whose range cannot be read is refused and its document
// marked unknown: before, the library read it as a change of the whole
// document, and eukhe's copy became the change's text alone.
func TestADidChangeWithABadRangeMakesTheDocumentUnknown(t *testing.T) {
	for _, rng := range []string{
		`{"start":{"line":-1,"character":0},"end":{"line":0,"character":2}}`,
		`{"start":{"line":0,"character":4294967296},"end":{"line":0,"character":2}}`,
		`{"start":{"line":0.5,"character":0},"end":{"line":1,"character":0}}`,
		`{"start":{"line":0}}`,
		`"everything"`,
	} {
		e := newEditor(t, editorOpts{})
		e.put("a.txt", "one\ntwo\n")
		e.open("a.txt")
		raw := `{"textDocument":{"uri":"` + string(uri.File(e.path("a.txt"))) + `","version":2},"contentChanges":[{"range":` + rng + `,"text":"X"}]}`
		if err := e.conn.Notify(e.ctx(), lsproto.MethodTextDocumentDidChange, json.RawMessage(raw)); err != nil {
			t.Fatal(err)
		}
		e.sync()
		got := e.tool("read", map[string]any{"path": "a.txt"})
		if !got.IsError || strings.Contains(got.Text, "1:X") || !strings.Contains(got.Text, "does not know the text") {
			t.Errorf("after a didChange with range %s: %v %s", rng, got.IsError, got.Text)
		}
	}
	// a sound one still applies
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "one\ntwo\n")
	e.open("a.txt")
	e.sendChange("a.txt", 2, 0, "zero\n")
	e.sync()
	if got := e.tool("read", map[string]any{"path": "a.txt"}); got.IsError || !strings.Contains(got.Text, "1:zero") {
		t.Errorf("a sound change: %s", got.Text)
	}
}
