package lsp

// The fifteenth red team's attacks on the editor's hearing (hearing.go)
// that HELD.

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// Attack (target 6): an editor busy at its start (it answers nothing for
// a while: workspace/workspaceFolders nor eukhe/approve) is asked the
// agent's first question before hearingWait, is found deaf with it
// open (the question taken back, the step denied), and then, free,
// answers everything it held: the folders (heard again) and the old
// question "approveSession". Its late yes must not run the first step
// nor count for a later one (approveSession would let every later step
// of the kind run unasked), and the later question, which it denies, is
// its own.
// Held: the first step did not run; the late yes is dropped with its
// request; the later step is asked and denied.
func TestRedteam15_LateYesOfAQuestionTakenBackFromADeafEditorIsDropped(t *testing.T) {
	was := hearingWait
	hearingWait = time.Second
	t.Cleanup(func() { hearingWait = was })
	late := make(chan struct{})
	d := &dialogs{answer: func(n int) string {
		if n == 1 {
			return protocol.AnswerApproveSession
		}
		return protocol.AnswerDeny
	}, hold: make(chan struct{})}
	o := editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 3600}`), methods: []string{protocol.MethodApprove}}
	o.handle = func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		switch req.Method() {
		case "workspace/workspaceFolders":
			jsonrpc2.Async(ctx)
			<-late
			return []any{}, nil, true
		case protocol.MethodApprove:
			jsonrpc2.Async(ctx)
			<-late
		}
		return d.handle(ctx, req)
	}
	e := newEditor(t, o)
	t.Cleanup(func() { close(d.hold) })
	e.sync()
	ag := attachAgent(e, "")
	start := time.Now()
	text, _ := ag.call("bash", map[string]any{"script": "echo one > one.txt"})
	if time.Since(start) < hearingWait/2 {
		t.Skipf("the question did not wait for the editor (asked after it was found deaf?): %s", text)
	}
	if e.disk("one.txt") != "<missing>" {
		t.Fatalf("the step asked of a deaf editor ran:\n%s", text)
	}
	close(late)
	waitFor(t, "the editor heard again", func() bool { return e.srv.att.broker.Attached().Interactive == 1 })
	time.Sleep(200 * time.Millisecond)
	if e.disk("one.txt") != "<missing>" {
		t.Errorf("THROUGH: the late yes of a question taken back ran its step")
	}
	text, _ = ag.call("bash", map[string]any{"script": "echo two > two.txt"})
	if e.disk("two.txt") != "<missing>" {
		t.Errorf("THROUGH: a later step ran on the late approveSession of the question taken back:\n%s", text)
	}
	d.mu.Lock()
	n := len(d.asked)
	d.mu.Unlock()
	if n < 2 || !strings.Contains(text, "denied") {
		t.Errorf("the later step was not asked and denied (%d questions):\n%s", n, text)
	}
}
