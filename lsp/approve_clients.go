package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// The two kinds of interactive client: the editor (eukhe/approve, else
// window/showMessageRequest) and an `eukhe approvals` terminal on the
// socket.

// editorApprover asks the editor of this connection: an agent.Client of
// the editor session's broker while it can show a dialog.
type editorApprover struct {
	s    *Server
	once sync.Once
	gone chan struct{} // closed at shutdown or when the editor leaves

	mu     sync.Mutex
	form   dialog // how it is asked; meaningful once known is set
	known  bool
	warned bool // the user was told the editor cannot show questions
	// deaf: the editor answered no request in hearingWait (hearing.go);
	// deafened is closed while it is
	deaf     bool
	deafened chan struct{}
	wait     time.Duration // hearingWait when it was made
}

// connected tells whether the editor is still there.
func (e *editorApprover) connected() bool {
	select {
	case <-e.gone:
		return false
	default:
	}
	_, _, _, ok := e.s.editor()
	return ok
}

// Present tells whether the editor can be asked: connected, and not known
// to be unable to show a question (agent.Present).
func (e *editorApprover) Present() bool {
	return e.connected() && e.dialog() != noDialog
}

// Ask shows q in the editor's dialog and waits for the answer
// (agent.Client).
func (e *editorApprover) Ask(ctx context.Context, q agent.Asked) (agent.Reply, bool) {
	wire, ok := e.askWire(ctx, agent.ApproveParamsOf(q))
	return agent.ReplyOfWire(wire), ok
}

// Settled tells the editor q no longer waits (agent.Client).
func (e *editorApprover) Settled(q agent.Asked, how agent.Settlement) {
	e.settleWire(agent.SettledParamsOf(q, how))
}

// dialog is the form the editor's next question takes.
func (e *editorApprover) dialog() dialog {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.deaf {
		return noDialog
	}
	if !e.known {
		e.form, e.known = firstDialog(e.s.capabilities().implements(protocol.MethodApprove)), true
	}
	return e.form
}

// failed records that a question in form d failed with err, and gives the
// form to ask in now (noDialog: none).
func (e *editorApprover) failed(d dialog, err error) dialog {
	e.mu.Lock()
	next := afterFailure(d, err)
	if e.form == d {
		e.form = next
	}
	tell := e.form == noDialog && !e.warned
	if tell {
		e.warned = true
	}
	now := e.form
	e.mu.Unlock()
	if tell {
		e.tellCannotAsk("it answered window/showMessageRequest with \"method not found\"")
	}
	return now
}

// unheard is route.Unheard's text while the editor is connected and
// cannot show questions.
func (e *editorApprover) unheard() string {
	if !e.connected() || e.dialog() != noDialog {
		return ""
	}
	return unheardText(e.s.capabilities().name)
}

// tellCannotAsk tells the user, once, where the questions go instead.
func (e *editorApprover) tellCannotAsk(why string) {
	client, _, life, ok := e.s.editor()
	if !ok {
		return
	}
	msg := "eukhe: " + unheardText(e.s.capabilities().name) + " (" + why + "). " +
		"Agents' questions go to `eukhe approvals` run in a terminal in the project; while none is attached they are denied at once."
	_ = client.ShowMessage(life, &lsproto.ShowMessageParams{Type: lsproto.MessageTypeWarning, Message: msg})
}

func (e *editorApprover) close() { e.once.Do(func() { close(e.gone) }) }

// askWire asks with the first dialog the editor can show; a form it
// lacks falls to the next.
func (e *editorApprover) askWire(ctx context.Context, p protocol.ApproveParams) (string, bool) {
	client, conn, life, ok := e.s.editor()
	if !ok {
		return "", false
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deafened := e.deafness()
	go func() {
		select {
		case <-e.gone:
		case <-life.Done():
		case <-ctx.Done():
		case <-deafened: // a deaf editor's question is taken back from it
		}
		cancel()
	}()
	for d := e.dialog(); ; {
		var (
			answer string
			err    error
		)
		switch d {
		case approveDialog:
			answer, err = askApprove(ctx, conn, p)
		case messageDialog:
			answer, err = askMessage(ctx, client, p)
		default:
			return "", false
		}
		if err == nil {
			return answer, true
		}
		next := e.failed(d, err)
		if next == d || ctx.Err() != nil {
			return "", false
		}
		d = next
	}
}

// askApprove asks with eukhe/approve; a result that is not an
// ApproveResult is a denial.
func askApprove(ctx context.Context, conn jsonrpc2.Conn, p protocol.ApproveParams) (string, error) {
	var raw jsonrpc2.RawMessage
	if err := call(ctx, conn, protocol.MethodApprove, p, &raw); err != nil {
		return "", err
	}
	var res protocol.ApproveResult
	if json.Unmarshal(raw, &res) != nil {
		return protocol.AnswerDeny, nil
	}
	return res.Answer, nil
}

// askMessage asks with window/showMessageRequest, Deny first.
func askMessage(ctx context.Context, client lsproto.Client, p protocol.ApproveParams) (string, error) {
	actions := make([]lsproto.MessageActionItem, len(dialogActions))
	for i, a := range dialogActions {
		actions[i] = lsproto.MessageActionItem{Title: a}
	}
	item, err := client.ShowMessageRequest(ctx, &lsproto.ShowMessageRequestParams{
		Type:    lsproto.MessageTypeWarning,
		Message: questionText(p),
		Actions: actions,
	})
	if err != nil {
		return "", err
	}
	if item == nil {
		return protocol.AnswerDeny, nil
	}
	return answerOfAction(item.Title), nil
}

// settleWire sends eukhe/approvalSettled, when the question was asked
// with eukhe/approve.
func (e *editorApprover) settleWire(p protocol.ApprovalSettledParams) {
	if !e.connected() || e.dialog() != approveDialog {
		return // a showMessageRequest cannot be taken back
	}
	_, conn, life, ok := e.s.editor()
	if ok {
		_ = notify(life, conn, protocol.MethodApprovalSettled, p)
	}
}

// questionText is a question in words, for a plain message: what would
// run and its effects first, then who asks and where. The step is
// indented, every line of it (a heredoc keeps its newlines), and the
// subagent's name and the directory are one line each as gate.Visible
// shows them, so nothing the agent wrote can pose as a line of the
// client's own (a fake list of actions above the real one) or come before
// the effects.
func questionText(p protocol.ApproveParams) string {
	what := "allow a document access"
	if p.Step > 0 {
		what = fmt.Sprintf("run step %d", p.Step)
	} else if p.Cell {
		what = "run an ipython cell"
	}
	who := "the agent"
	if p.Agent != "" {
		who = "agent " + gate.Visible(p.Agent)
	}
	where := ""
	if p.Cwd != "" {
		where = " in " + gate.Visible(p.Cwd)
	}
	step := "    " + strings.ReplaceAll(gate.VisibleText(p.Text), "\n", "\n    ")
	return fmt.Sprintf("eukhe: %s (%s)? Asked by %s%s:\n%s", what, joinEffects(p.Effects), who, where, step)
}

func joinEffects(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "+"
		}
		out += n
	}
	return out
}

// serveTerminal registers a terminal until it leaves: an interactive one
// is asked every question; a gateway only counts as attached (G5: the
// gateway rule answers at once).
func (b *broker) serveTerminal(ctx context.Context, c net.Conn, br *bufio.Reader, gateway bool) {
	t := agent.NewTerminal(c)
	var leave func()
	if gateway {
		leave = b.JoinGateway()
	} else {
		leave = b.Join(t)
	}
	defer func() { leave(); t.Leave() }()
	for {
		line, err := readLine(br, maxHello)
		if err != nil || ctx.Err() != nil {
			return
		}
		var a protocol.TerminalAnswer
		if json.Unmarshal(line, &a) != nil {
			continue
		}
		t.Answer(a)
	}
}
