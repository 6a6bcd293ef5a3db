//go:build open_attacks

package lsp

// The fourteenth red team's attacks on the editor's hearing that GOT
// THROUGH (run with -tags open_attacks).

import (
	"context"
	"testing"
	"time"
)

// Attack (target 6): a real editor busy past hearingWait when eukhe's
// first request comes (VS Code's extension host still loading, Neovim
// in a blocking prompt: "Press ENTER" after a startup message) answers
// workspace/workspaceFolders late, but shows and answers every question
// once it is free. A question asked in the deaf window is denied at
// once, although the user could have answered it in the editor.
// THROUGH (severity low: a denial, fail-safe; the agent is told the
// editor cannot show questions and may give up or pester): the step
// approved by the editor's dialog never reached it.
// Root cause: deafness is judged by one request's timing at initialized,
// not by the dialogs' own answers; a busy start is taken for a client
// without dialogs, and the question is not sent at all while deaf (no
// ask-and-wait).
func TestRedteam14_BusyEditorLooksDeaf(t *testing.T) {
	late := make(chan struct{})
	e, _ := r14hearing(t, `{"shell.autoEffects": ["read"]}`, func(ctx context.Context) (any, error) {
		select {
		case <-late:
		case <-ctx.Done():
		}
		return []any{}, nil
	})
	time.Sleep(2 * hearingWait)
	ag := attachAgent(e, "")
	text, _ := ag.call("bash", map[string]any{"script": "echo one > out.txt"})
	close(late)
	if e.disk("out.txt") != "one\n" {
		t.Errorf("THROUGH: an editor that shows dialogs, busy at start, was taken for deaf and the step denied:\n%s", text)
	}
}

// Attack (target 6): an editor that answers workspace/workspaceFolders
// at once but drops eukhe/approve and window/showMessageRequest (a
// client whose LSP layer answers the standard requests and drops the
// rest, as ALE drops all) is heard: each question waits the whole
// approval.timeoutSeconds (here 3 s) instead of going to the terminals
// at once.
// THROUGH (severity low: the step is denied at the timeout; an agent
// blocked an hour by default): the question waited the timeout.
// Root cause: hearing is one request's answer; a dropped dialog request
// is not noticed (no per-question liveness), and the first request is
// not one of the dialog methods.
func TestRedteam14_DialogDroppingEditorLooksHearing(t *testing.T) {
	e, d := r14hearing(t, `{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 3}`, func(context.Context) (any, error) { return []any{}, nil })
	d.mu.Lock()
	d.answer = func(int) string { return "" } // never answered
	d.mu.Unlock()
	time.Sleep(2 * hearingWait)
	ag := attachAgent(e, "")
	start := time.Now()
	text, _ := ag.call("bash", map[string]any{"script": "echo one > out.txt"})
	if took := time.Since(start); took > 4*hearingWait {
		t.Errorf("THROUGH: a question the editor dropped waited %v (the approval timeout):\n%s", took, text)
	}
	if e.disk("out.txt") != "<missing>" {
		t.Errorf("the unanswered step ran")
	}
}
