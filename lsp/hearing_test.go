package lsp

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// An editor that answers no request of the server's (ALE): eukhe's first
// request, workspace/workspaceFolders, goes unanswered, so past
// hearingWait the editor cannot show questions. A question already sent
// to it is taken back and the agent is told at once (not after the hour
// of approval.timeoutSeconds), the user is told once, and the editor is
// not counted as interactive; its late answer makes it heard again.
func TestAnEditorThatAnswersNoRequestCannotShowQuestions(t *testing.T) {
	was := hearingWait
	hearingWait = 300 * time.Millisecond
	t.Cleanup(func() { hearingWait = was })
	answer := make(chan struct{})
	d := &dialogs{hold: make(chan struct{})}
	o := editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 3600}`)}
	o.handle = func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		switch req.Method() {
		case "workspace/workspaceFolders":
			jsonrpc2.Async(ctx) // the editor reads on
			select {
			case <-answer:
			case <-d.hold:
			}
			return []any{}, nil, true
		case "window/showMessageRequest":
			jsonrpc2.Async(ctx)
			<-d.hold // dropped: never answered while the test runs
			return nil, nil, true
		}
		return d.handle(ctx, req)
	}
	e := newEditor(t, o)
	t.Cleanup(func() { close(d.hold) })
	e.sync()
	ag := attachAgent(e, "")
	start := time.Now()
	text, _ := ag.call("bash", map[string]any{"script": "echo a > f"})
	if e.disk("f") != "<missing>" || !strings.Contains(text, "cannot show questions") {
		t.Fatalf("the step ran, or its result does not say the editor cannot show questions:\n%s", text)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the agent waited %v for a question the editor dropped", took)
	}
	// the user is told beside the agent's reply, not before it: polled
	// (a CI rehearsal read the messages before it came)
	var shown string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		d.mu.Lock()
		shown = strings.Join(d.shown, "\n")
		d.mu.Unlock()
		if strings.Contains(shown, "cannot show questions") || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(100 * time.Millisecond) // a second telling would come now
	d.mu.Lock()
	shown = strings.Join(d.shown, "\n")
	d.mu.Unlock()
	if strings.Count(shown, "cannot show questions") != 1 || !strings.Contains(shown, "answered no request of eukhe's") {
		t.Errorf("the user was told:\n%s", shown)
	}
	if att := e.srv.att.broker.Attached(); att.Interactive != 0 {
		t.Errorf("an editor that answers no request counts as interactive: %+v", att)
	}
	close(answer) // its answer comes late: it can be asked again
	waitFor(t, "the editor heard again", func() bool { return e.srv.att.broker.Attached().Interactive == 1 })
}

// An editor that answers eukhe's first request in time is asked its
// questions (the fake editor answers workspace/workspaceFolders).
func TestAnEditorThatAnswersIsNotTakenForDeaf(t *testing.T) {
	was := hearingWait
	hearingWait = 300 * time.Millisecond
	t.Cleanup(func() { hearingWait = was })
	d := &dialogs{answer: func(int) string { return "approve" }}
	e := approvingEditor(t, d)
	time.Sleep(2 * hearingWait)
	ag := attachAgent(e, "")
	if text, failed := ag.call("bash", map[string]any{"script": "echo one > out.txt"}); failed || e.disk("out.txt") != "one\n" {
		t.Fatalf("the approved step: %s", text)
	}
}
