package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/protocol"
)

// The ipython tool of an agent attached to the editor: a cell outside
// the auto set is the editor's dialog (a cell, its code), and the cell's
// read() sees the editor's unsaved buffer as the read tool does.
func TestAnAttachedAgentsCellAsksTheEditorAndReadsItsBuffers(t *testing.T) {
	py := testkit.IPython(t)
	d := &dialogs{answer: func(n int) string { return map[int]string{1: "approve", 2: "deny"}[n] }}
	b, _ := json.Marshal(py)
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"], "ipython.python": `+string(b)+`}`),
		methods: []string{protocol.MethodApprove}})
	e.put("a.txt", "on disk\n")
	e.openText("a.txt", "unsaved\n")
	ag := attachAgent(e, "")
	code := "print(read('a.txt').lines)"
	text, failed := ag.call("ipython", map[string]any{"code": code})
	if failed || !strings.Contains(text, "['unsaved']") {
		t.Fatalf("an approved cell:\n%s", text)
	}
	d.mu.Lock()
	asked := append([]protocol.ApproveParams(nil), d.asked...)
	d.mu.Unlock()
	if len(asked) != 1 || !asked[0].Cell || asked[0].Text != code || asked[0].Step != 0 || strings.Join(asked[0].Effects, ",") != "exec" {
		t.Fatalf("the editor's question: %+v", asked)
	}
	text, failed = ag.call("ipython", map[string]any{"code": "print('ran')"})
	if !failed || !strings.HasPrefix(text, "ipython did not run (exec): the user denied it") || strings.Contains(text, "ran\n") {
		t.Fatalf("a denied cell:\n%s", text)
	}
}
