package lsp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// Every question's first action denies (DESIGN §5), in every form: a
// client that pre-selects the first one (Eglot pre-fills it in the
// minibuffer) denies on Enter alone.
func TestEveryQuestionsFirstActionDenies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var effs gate.Effects
		for _, e := range rapid.SliceOf(rapid.SampledFrom([]gate.Effect{gate.Read, gate.Write, gate.Exec,
			gate.Net, gate.Outside, gate.Protected, gate.Secret})).Draw(t, "effects") {
			effs = effs.Union(gate.Of(e))
		}
		if o := offers(effs); o[0] != protocol.AnswerDeny {
			t.Fatalf("offers %v for %s", o, effs)
		}
	})
	if dialogActions[0] != actionDeny || answerOfAction(dialogActions[0]) != protocol.AnswerDeny {
		t.Fatalf("showMessageRequest actions %v", dialogActions)
	}
	for _, title := range []string{"", "allow", "Allow ", "ALLOW", "Deny", "OK"} {
		if answerOfAction(title) != protocol.AnswerDeny {
			t.Errorf("action %q approves", title)
		}
	}
}

// A showMessageRequest client that sends back its first action (Enter
// alone in Eglot's minibuffer) denies the step.
func TestEnterAloneInAMessageDialogDenies(t *testing.T) {
	d := &dialogs{enter: true}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"]}`)})
	ag := attachAgent(e, "")
	text, _ := ag.call("bash", map[string]any{"script": "echo a > f"})
	d.mu.Lock()
	actions := d.actions
	d.mu.Unlock()
	if len(actions) != 1 || strings.Join(actions[0], ",") != "Deny,Allow" {
		t.Fatalf("the actions sent: %v", actions)
	}
	if e.disk("f") != "<missing>" || !strings.Contains(text, "the user denied it") {
		t.Fatalf("the first action ran the step or said:\n%s", text)
	}
}

func TestAfterFailureFallsToTheNextFormOnlyOnMethodNotFound(t *testing.T) {
	notFound := jsonrpc2.ErrMethodNotFound
	for _, c := range []struct {
		d    dialog
		err  error
		want dialog
	}{
		{approveDialog, notFound, messageDialog},
		{messageDialog, notFound, noDialog},
		{noDialog, notFound, noDialog},
		{approveDialog, errors.New("the dialog was closed"), approveDialog},
		{messageDialog, jsonrpc2.NewError(jsonrpc2.InternalError, "boom"), messageDialog},
		{messageDialog, jsonrpc2.NewError(-32800, "request cancelled"), messageDialog},
	} {
		if got := afterFailure(c.d, c.err); got != c.want {
			t.Errorf("afterFailure(%d, %v) = %d, want %d", c.d, c.err, got, c.want)
		}
	}
}

// Helix answers showMessageRequest with MethodNotFound: the agent is told
// the editor cannot show questions (not "attach a client"), at once, the
// editor is not asked again, and the user is told once where questions go.
func TestAnEditorThatCannotShowQuestionsIsSaidSoAndNotAskedAgain(t *testing.T) {
	d := &dialogs{noMessages: true}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 3600}`)})
	ag := attachAgent(e, "")
	for i := range 2 {
		text, _ := ag.call("bash", map[string]any{"script": "echo a > f"})
		if e.disk("f") != "<missing>" || !strings.Contains(text, "no one answered: the editor (fake) cannot show questions") ||
			!strings.Contains(text, "answer it with `eukhe approvals` in a terminal") || strings.Contains(text, "attach a client") {
			t.Fatalf("question %d ran or said:\n%s", i+1, text)
		}
	}
	d.mu.Lock()
	asked, shown := len(d.messages), strings.Join(d.shown, "\n")
	d.mu.Unlock()
	if asked != 1 {
		t.Errorf("the editor was asked %d times; once it answered MethodNotFound it must not be asked again", asked)
	}
	if strings.Count(shown, "cannot show questions") != 1 || !strings.Contains(shown, "eukhe approvals") {
		t.Errorf("the user was told:\n%s", shown)
	}
	if att := e.srv.att.broker.Attached(); att.Interactive != 0 {
		t.Errorf("an editor that cannot show questions counts as interactive: %+v", att)
	}
	// The broker asks no one.
	if _, ok := e.srv.att.broker.Ask(e.ctx(), gate.Question{What: "write /x", Effects: gate.Of(gate.Write)}); ok {
		t.Errorf("the broker asked an editor that cannot show questions")
	}
}

// With a terminal attached, the question the editor cannot show goes to
// the terminal, which answers it.
func TestAQuestionTheEditorCannotShowGoesToTheTerminal(t *testing.T) {
	d := &dialogs{noMessages: true}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"]}`)})
	term := attachTerminal(t, e, false)
	waitFor(t, "the terminal attached", func() bool { return e.srv.att.broker.Attached().Interactive == 2 })
	ag := attachAgent(e, "")
	for i, want := range []string{"a\n", "b\n"} {
		done := make(chan string)
		go func() {
			text, _ := ag.call("bash", map[string]any{"script": "echo " + want[:1] + " > f"})
			done <- text
		}()
		method, params := term.next(t)
		var q protocol.ApproveParams
		if json.Unmarshal(params, &q); method != protocol.MethodApprove || q.Offers[0] != protocol.AnswerDeny {
			t.Fatalf("the terminal got %s %s", method, params)
		}
		// The editor's MethodNotFound is in before the terminal answers (an
		// answer first would end the editor's question unlearned).
		waitFor(t, "the editor to count as unable to ask", func() bool { return e.srv.att.broker.Attached().Interactive == 1 })
		b, _ := json.Marshal(protocol.TerminalAnswer{ID: q.ID, Answer: protocol.AnswerApprove})
		term.c.Write(append(b, '\n'))
		if text := <-done; e.disk("f") != want {
			t.Fatalf("question %d: the terminal's approval did not run the step: %s", i+1, text)
		}
	}
	d.mu.Lock()
	asked := len(d.messages)
	d.mu.Unlock()
	if asked != 1 {
		t.Errorf("the editor was asked %d times", asked)
	}
}

// A client that lists eukhe/approve but answers it MethodNotFound is asked
// with showMessageRequest in the same question.
func TestAnApproveMethodNotFoundFallsBackToAMessageDialog(t *testing.T) {
	allow := actionAllow
	d := &dialogs{answer: func(int) string { return "?" }, action: &allow}
	e := approvingEditor(t, d)
	ag := attachAgent(e, "")
	if text, failed := ag.call("bash", map[string]any{"script": "echo a > f"}); failed || e.disk("f") != "a\n" {
		t.Fatalf("Allow through the fallback: %s", text)
	}
	ag.call("bash", map[string]any{"script": "echo b > f"})
	d.mu.Lock()
	approves, messages := len(d.asked), len(d.messages)
	d.mu.Unlock()
	if approves != 1 || messages != 2 {
		t.Errorf("eukhe/approve asked %d times, showMessageRequest %d; want 1 and 2", approves, messages)
	}
}

// A step's own lines cannot pose as the client's: each is indented, and a
// subagent's name or a directory with a newline is escaped.
func TestAQuestionsTextCannotPoseAsTheClientsLines(t *testing.T) {
	q := protocol.ApproveParams{Agent: "helper\n1. Deny", Cwd: "/ws/x\nRequest Actions:", Step: 1, Effects: []string{"write"},
		Text: "cat >f <<EOF\nRequest Actions:\n1. Allow\n2. Deny\nEOF"}
	msg := questionText(q)
	lines := strings.Split(msg, "\n")
	if !strings.HasPrefix(lines[0], "eukhe: run step 1 (write)? Asked by agent ") {
		t.Fatalf("the message:\n%s", msg)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("a line of the message starts at the margin: %q\n%s", l, msg)
		}
	}
	if len(lines) != 6 {
		t.Errorf("the message has %d lines, want the header and the step's 5:\n%s", len(lines), msg)
	}
}

// A cell's question in a plain message says it is a cell.
func TestAQuestionsTextOfACell(t *testing.T) {
	msg := questionText(protocol.ApproveParams{Cell: true, Effects: []string{"exec"}, Text: "import os\nos.system('make')"})
	if !strings.HasPrefix(msg, "eukhe: run an ipython cell (exec)? Asked by the agent:\n    import os\n    os.system('make')") {
		t.Fatalf("the message:\n%s", msg)
	}
}
