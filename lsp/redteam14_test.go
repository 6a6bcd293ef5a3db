package lsp

// The fourteenth red team's attacks on the editor's hearing (hearing.go):
// an editor that answers no request in hearingWait is deaf. Held ones
// here; those that got through in redteam14_open14_test.go (build tag
// open_attacks).

import (
	"context"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// r14hearing is an editor that implements eukhe/approve (answered at
// once with answer) and answers workspace/workspaceFolders as folders
// says: after a delay, with an error, or never (nil channel: never).
func r14hearing(t *testing.T, settingsText string, folders func(ctx context.Context) (any, error)) (*fakeEditor, *dialogs) {
	t.Helper()
	was := hearingWait
	hearingWait = 300 * time.Millisecond
	t.Cleanup(func() { hearingWait = was })
	d := &dialogs{answer: func(int) string { return "approve" }, hold: make(chan struct{})}
	o := editorOpts{env: settingsEnv(t, settingsText), methods: []string{protocol.MethodApprove}}
	o.handle = func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		if req.Method() == "workspace/workspaceFolders" {
			jsonrpc2.Async(ctx)
			v, err := folders(ctx)
			return v, err, true
		}
		return d.handle(ctx, req)
	}
	e := newEditor(t, o)
	t.Cleanup(func() { close(d.hold) })
	e.sync()
	return e, d
}

// Attack (target 6): an editor that answers workspace/workspaceFolders
// with an error (MethodNotFound: it lists no folders) is not deaf; its
// dialogs are asked and an approval runs the step.
// Held.
func TestRedteam14_FoldersErrorIsHearing(t *testing.T) {
	e, _ := r14hearing(t, `{"shell.autoEffects": ["read"]}`, func(context.Context) (any, error) { return nil, jsonrpc2.ErrMethodNotFound })
	time.Sleep(2 * hearingWait)
	ag := attachAgent(e, "")
	if text, failed := ag.call("bash", map[string]any{"script": "echo one > out.txt"}); failed || e.disk("out.txt") != "one\n" {
		t.Fatalf("THROUGH: an editor that answered with an error was taken for deaf: %s", text)
	}
}
