package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/protocol"
)

// G5 on the clients that run: gate/route's laws are tested on route.Chain
// over generated sinks (gate/route/laws_route_test.go); here the same
// route runs end to end, through a real chain of subagent sessions
// attached with their parents, to the editor's broker with the editor and `eukhe
// approvals` terminals that answer, leave, or attach as the phone
// gateway, and a bash step that writes a file or a protected file.

// routeTerminal is an `eukhe approvals` client that answers each question
// with answer, leaves at its first question (leave), or is a gateway.
type routeTerminal struct {
	gateway bool
	leave   bool
	answer  string

	c      net.Conn
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	got    []protocol.ApproveParams // the questions it was shown
	other  []string                 // any other message
}

func (e *fakeEditor) routeTerminal(t *testing.T, rt *routeTerminal) {
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	rt.c, rt.cancel, rt.done = b, cancel, make(chan struct{})
	served := make(chan struct{})
	go func() { e.srv.ServeConn(ctx, a); close(served) }()
	hello(t, b, protocol.Hello{Eukhe: "approvals", Gateway: rt.gateway})
	go func() {
		defer close(rt.done)
		defer func() { <-served }()
		br := bufio.NewReader(b)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			var m struct {
				Method string
				Params protocol.ApproveParams
			}
			json.Unmarshal(line, &m)
			rt.mu.Lock()
			if m.Method != protocol.MethodApprove {
				rt.other = append(rt.other, m.Method)
				rt.mu.Unlock()
				continue
			}
			rt.got = append(rt.got, m.Params)
			rt.mu.Unlock()
			if rt.leave {
				cancel()
				b.Close()
				return
			}
			ans, _ := json.Marshal(protocol.TerminalAnswer{ID: m.Params.ID, Answer: rt.answer})
			b.Write(append(ans, '\n'))
		}
	}()
}

func (rt *routeTerminal) close() {
	rt.cancel()
	rt.c.Close()
	<-rt.done
}

// newSession attaches an agent under parent and gives its session id.
func newSession(e *fakeEditor, parent string) (*agentConn, string) {
	before := map[string]bool{}
	e.srv.att.mu.Lock()
	for id := range e.srv.att.sessions {
		before[id] = true
	}
	e.srv.att.mu.Unlock()
	ag := attachAgent(e, parent)
	e.srv.att.mu.Lock()
	defer e.srv.att.mu.Unlock()
	for id := range e.srv.att.sessions {
		if !before[id] {
			return ag, id
		}
	}
	e.t.Fatalf("no session was attached")
	return nil, ""
}

func TestTheRouteRunsOnTheEditorsBrokerWithRealClients(t *testing.T) {
	var editorMu sync.Mutex
	editorAnswer := "!"
	d := &dialogs{answer: func(int) string {
		editorMu.Lock()
		defer editorMu.Unlock()
		return editorAnswer
	}}
	e := approvingEditor(t, d)
	if err := os.MkdirAll(filepath.Join(e.root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	round := 0
	rapid.Check(t, func(r *rapid.T) {
		round++
		// The clients of the editor's session: the editor, which answers
		// or cannot ask (it leaves the question), and terminals.
		answer := rapid.SampledFrom([]string{protocol.AnswerApprove, protocol.AnswerDeny}).Draw(r, "answer")
		editorAnswers := rapid.Bool().Draw(r, "the editor answers")
		editorMu.Lock()
		editorAnswer = map[bool]string{true: answer, false: "!"}[editorAnswers]
		editorMu.Unlock()
		var terms []*routeTerminal
		answering := rapid.IntRange(0, 2).Draw(r, "answering terminals")
		leaving := rapid.IntRange(0, 2).Draw(r, "leaving terminals")
		gateways := rapid.IntRange(0, 2).Draw(r, "gateways")
		for i := 0; i < answering+leaving+gateways; i++ {
			rt := &routeTerminal{answer: answer, leave: i >= answering && i < answering+leaving,
				gateway: i >= answering+leaving}
			e.routeTerminal(t, rt)
			terms = append(terms, rt)
		}
		defer func() {
			for _, rt := range terms {
				rt.close()
			}
			waitFor(t, "the terminals left", func() bool {
				a := e.srv.att.broker.Attached()
				return a.Interactive == 1 && a.Gateway == 0
			})
		}()
		waitFor(t, "the terminals attached", func() bool {
			a := e.srv.att.broker.Attached()
			return a.Interactive == 1+answering+leaving && a.Gateway == gateways
		})

		// A chain of subagents; the deepest asks.
		depth := rapid.IntRange(1, 4).Draw(r, "sessions")
		var ag *agentConn
		id, parent := "", ""
		for i := 0; i < depth; i++ {
			ag, id = newSession(e, parent)
			parent = id
		}
		wantAgent := ""
		if depth > 1 {
			wantAgent = id
		}
		protected := rapid.Bool().Draw(r, "protected")
		name := fmt.Sprintf("f%d", round)
		if protected {
			name = filepath.Join(".git", name)
		}
		d.mu.Lock()
		editorAsked := len(d.asked)
		d.mu.Unlock()
		text, _ := ag.call("bash", map[string]any{"script": "echo r > " + name})
		ran := e.disk(name) == "r\n"

		someoneAnswers := editorAnswers || answering > 0
		switch {
		case someoneAnswers: // nearest_answer_wins, child_answered_by_root
			if ran != (answer == protocol.AnswerApprove) {
				r.Fatalf("the clients answered %s, the step ran=%v: %s", answer, ran, text)
			}
		case gateways > 0: // gateway_never_waits, left_to_the_gateway, gateway_refuses_protected, gateway_runs_the_rest
			if ran == protected || (protected && !strings.Contains(text, "phone gateway")) {
				r.Fatalf("the gateway rule on a protected=%v write: ran=%v: %s", protected, ran, text)
			}
		default: // quiet_is_unanswered
			if ran || !strings.Contains(text, "no one answered") {
				r.Fatalf("no client answered, yet: ran=%v: %s", ran, text)
			}
		}
		// Every interactive client was shown the question, naming the
		// subagent; a gateway was shown nothing.
		// When one answers, the broker stops asking the rest, so a client
		// may not have been shown it yet.
		d.mu.Lock()
		shown := d.asked[editorAsked:]
		d.mu.Unlock()
		if len(shown) > 1 || (!someoneAnswers && len(shown) != 1) || (len(shown) == 1 && shown[0].Agent != wantAgent) {
			r.Fatalf("the editor was shown %+v, want one question naming %q", shown, wantAgent)
		}
		for _, rt := range terms {
			rt.mu.Lock()
			got, other := rt.got, rt.other
			rt.mu.Unlock()
			switch {
			case rt.gateway && (len(got) != 0 || len(other) != 0):
				r.Fatalf("a gateway was shown %+v %v", got, other)
			case !rt.gateway && !someoneAnswers && (len(got) != 1 || got[0].Agent != wantAgent):
				r.Fatalf("a terminal was shown %+v, want one question naming %q", got, wantAgent)
			}
		}
	})
}
