package agent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/agent/brokertest"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/protocol"
)

// The one broker suite, run with the fake and every kind of client this
// package holds: the agent's MCP client (Elicitor) and an `eukhe
// approvals` terminal (Terminal); a parent session in another process
// (ParentClient to a real approvals endpoint relaying to its own broker)
// in the next test. Package lsp runs it with the editor.
func TestBrokerWithEveryClientKind(t *testing.T) {
	brokertest.Run(t,
		brokertest.Kind{Name: "fake", New: func(t *testing.T) (agent.Client, brokertest.User) { return brokertest.NewFake() }},
		brokertest.Kind{Name: "elicitation", New: newElicitClient},
		brokertest.Kind{Name: "terminal", New: newTerminalClient},
	)
}

// The same laws with a parent session in another process, over a Unix
// socket (where the system has them).
func TestBrokerWithAParentClient(t *testing.T) {
	testkit.NeedUnixSockets(t)
	brokertest.Run(t, brokertest.Kind{Name: "parent", New: newParentClient})
}

// newElicitClient is the agent's MCP client with elicitation: the form's
// step is what it shows; cancelling the request drops it; a closed
// connection leaves.
func newElicitClient(t *testing.T) (agent.Client, brokertest.User) {
	gone := make(chan struct{})
	var once sync.Once
	desk := brokertest.NewDesk(func() { once.Do(func() { close(gone) }) })
	e := &agent.Elicitor{Elicit: func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		desk.Show(elicitedStep(p.Message))
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		left := false
		go func() {
			select {
			case <-gone:
				left = true
				cancel()
			case <-ctx.Done():
			}
		}()
		c, ok := desk.Choice(ctx)
		switch {
		case ok:
			v := map[brokertest.Choice]string{brokertest.Allow: agent.ElicitAllow, brokertest.Deny: agent.ElicitDeny,
				brokertest.AllowForSession: agent.ElicitAllowSession}[c]
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{agent.ElicitField: v}}, nil
		case left:
			return nil, mcp.ErrConnectionClosed
		}
		desk.Drop() // notifications/cancelled
		return nil, ctx.Err()
	}}
	return e, desk
}

// elicitedStep is the step of an elicitation message: its first indented
// line.
func elicitedStep(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if s, ok := strings.CutPrefix(l, "    "); ok {
			return s
		}
	}
	return ""
}

// newTerminalClient is a Terminal on one end of a pipe, read as the
// endpoint reads it; the user at the other end sees eukhe/approve lines,
// answers with {"id","answer"} lines and drops a question at its
// eukhe/approvalSettled line. Leaving closes the pipe.
func newTerminalClient(t *testing.T) (agent.Client, brokertest.User) {
	srv, user := net.Pipe()
	t.Cleanup(func() { user.Close(); srv.Close() })
	tm := agent.NewTerminal(srv)
	go func() { // the endpoint's read loop
		defer tm.Leave()
		sc := bufio.NewScanner(srv)
		for sc.Scan() {
			var a protocol.TerminalAnswer
			if json.Unmarshal(sc.Bytes(), &a) == nil {
				tm.Answer(a)
			}
		}
	}()
	desk := brokertest.NewDesk(func() { user.Close() })
	go func() { // the user's terminal
		var mu sync.Mutex
		waiting := map[string]context.CancelFunc{}
		sc := bufio.NewScanner(user)
		for sc.Scan() {
			var l protocol.TerminalLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			switch l.Method {
			case protocol.MethodApprove:
				var p protocol.ApproveParams
				json.Unmarshal(l.Params, &p)
				ctx, cancel := context.WithCancel(context.Background())
				mu.Lock()
				waiting[p.ID] = cancel
				mu.Unlock()
				desk.Show(p.Text)
				go func() {
					c, ok := desk.Choice(ctx)
					if !ok {
						return
					}
					wire := map[brokertest.Choice]string{brokertest.Allow: protocol.AnswerApprove, brokertest.Deny: protocol.AnswerDeny,
						brokertest.AllowForSession: protocol.AnswerApproveSession}[c]
					b, _ := json.Marshal(protocol.TerminalAnswer{ID: p.ID, Answer: wire})
					user.Write(append(b, '\n'))
				}()
			case protocol.MethodApprovalSettled:
				var s protocol.ApprovalSettledParams
				json.Unmarshal(l.Params, &s)
				mu.Lock()
				if cancel := waiting[s.ID]; cancel != nil {
					cancel()
				}
				mu.Unlock()
				desk.Drop()
			}
		}
	}()
	return tm, desk
}

// newParentClient is a parent session in another process: a real
// approvals endpoint (Terminals) whose Relay asks the parent's own broker,
// whose one client is a fake in front of the user. Leaving ends the
// parent's process: every connection to its endpoint closes unanswered.
func newParentClient(t *testing.T) (agent.Client, brokertest.User) {
	dir, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	tl := &trackedListener{Listener: ln}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); tl.closeAll(); os.RemoveAll(dir) })
	parentsClient, user := brokertest.NewFake()
	parent := &agent.Broker{}
	parent.Join(parentsClient)
	ep := &agent.Terminals{Relay: func(ctx context.Context, q gate.Question) gate.Answer {
		a, _ := parent.Ask(ctx, q)
		return a
	}}
	go ep.Serve(ctx, tl)
	c := agent.ParentClient{Dial: func() (net.Conn, error) { return net.Dial("unix", sock) }}
	desk := brokertest.NewDesk(func() { tl.closeAll(); cancel() }) // the connections first: no answer line gets out
	return c, parentUser{Fake: user, desk: desk}
}

// parentUser is the fake in front of the parent, left by ending the
// parent's endpoint.
type parentUser struct {
	*brokertest.Fake
	desk *brokertest.Desk
}

func (p parentUser) Leave(t testing.TB) { p.desk.Leave(t) }

// trackedListener closes every connection it accepted on closeAll, as a
// process that ends does.
type trackedListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *trackedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *trackedListener) closeAll() {
	l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

// Only approve and approve_session run a step: every other answer line a
// terminal or the editor sends (a dismissed dialog, a typo, an unknown
// word) denies, and only approve_session asks for the grant.
func TestLaw_only_an_approving_answer_runs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		wire := rapid.OneOf(rapid.SampledFrom([]string{protocol.AnswerApprove, protocol.AnswerApproveSession,
			protocol.AnswerDeny, "", "yes", "Approve", "approve ", "unanswered"}), rapid.String()).Draw(t, "wire")
		r := agent.ReplyOfWire(wire)
		runs := wire == protocol.AnswerApprove || wire == protocol.AnswerApproveSession
		if r.Answer.Runs() != runs || (!runs && r.Answer != gate.Deny) {
			t.Fatalf("%q reads as %v", wire, r.Answer)
		}
		if r.ForSession != (wire == protocol.AnswerApproveSession) {
			t.Fatalf("%q asks for the grant: %v", wire, r.ForSession)
		}
	})
}

// A settle notice says the answer that won, and a reason only for a
// timeout.
func TestSettledParamsSayHowItEnded(t *testing.T) {
	q := agent.Asked{ID: "q7"}
	for _, c := range []struct {
		how            agent.Settlement
		answer, reason string
	}{
		{agent.Settlement{Answered: true, Answer: gate.Approve}, "approve", ""},
		{agent.Settlement{Answered: true, Answer: gate.Deny}, "deny", ""},
		{agent.Settlement{Answer: gate.Unanswered, TimedOut: 120 * time.Second}, "unanswered", "timed out after 120 s"},
		{agent.Settlement{Answer: gate.Unanswered}, "unanswered", ""},
	} {
		p := agent.SettledParamsOf(q, c.how)
		if p.ID != "q7" || p.Answer != c.answer || p.Reason != c.reason {
			t.Errorf("%+v: %+v", c.how, p)
		}
	}
}
