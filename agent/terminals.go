package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"net"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// Terminals is the approvals endpoint of a headless session:
// the `eukhe approvals` terminals attached to it over its discovery
// socket. It is the session's own sink (a route.Asker): every interactive
// terminal is asked, the first answer wins, the others are told it
// settled; terminals attached as gateways are only counted (G5). The wire
// is the editor server's (package protocol's Hello, HelloAnswer,
// TerminalLine, TerminalAnswer): a hello line
// {"eukhe":"approvals","gateway":b}, answered {"eukhe":"attached"} once
// the terminal is counted, then eukhe/approve and eukhe/approvalSettled
// lines out and {"id","answer"} lines in.
type Terminals struct {
	// Broker asks the interactive terminals and counts the gateways; its
	// Timeout is the approval timeout in force.
	Broker
	// Relay, when set, answers a subagent's question relayed from another
	// process (G5): the hello {"eukhe":"relay","question":{…}} gets one
	// line {"answer": …} once this session's chain answered it.
	Relay func(ctx context.Context, q gate.Question) gate.Answer
}

// maxTermLine bounds one line from a terminal.
const maxTermLine = 64 << 10

// Serve accepts terminals on ln until it closes or ctx ends.
func (t *Terminals) Serve(ctx context.Context, ln net.Listener) {
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go t.serve(ctx, c)
	}
}

// MaxRelayHops is how many processes a relayed question may cross: a
// chain of --parent that loops through processes ends there.
const MaxRelayHops = 16

type relayHopsKey struct{}

// RelayHops is how many relays brought the question asked under ctx.
func RelayHops(ctx context.Context) int {
	n, _ := ctx.Value(relayHopsKey{}).(int)
	return n
}

// RelayQuestionOf is q as a relay hello carries it.
func RelayQuestionOf(q gate.Question) *protocol.RelayQuestion {
	return &protocol.RelayQuestion{ID: q.ID, Session: q.Session, Agent: q.Agent, What: q.What,
		Effects: uint8(q.Effects), Step: q.Step, Cell: q.Cell, Cwd: q.Cwd, Reals: q.Reals}
}

// relayedQuestion is the question a relay hello carries.
func relayedQuestion(p protocol.RelayQuestion) gate.Question {
	return gate.Question{ID: p.ID, Session: p.Session, Agent: p.Agent, What: p.What,
		Effects: gate.Effects(p.Effects), Step: p.Step, Cell: p.Cell, Cwd: p.Cwd, Reals: p.Reals}
}

func (t *Terminals) serve(ctx context.Context, c net.Conn) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 4<<10)
	line, long, err := readLine(br, maxTermLine)
	var h protocol.Hello
	if err == nil && !long && json.Unmarshal(line, &h) == nil && h.Eukhe == protocol.HelloRelay && h.Question != nil && t.Relay != nil {
		t.relay(context.WithValue(ctx, relayHopsKey{}, h.Hops), c, br, relayedQuestion(*h.Question))
		return
	}
	if err != nil || long || json.Unmarshal(line, &h) != nil || h.Eukhe != protocol.HelloApprovals {
		b, _ := json.Marshal(protocol.HelloAnswer{Error: "this is a headless eukhe mcp session's approvals endpoint: only `eukhe approvals` attaches here"})
		c.Write(append(b, '\n'))
		return
	}
	tm := NewTerminal(c)
	var leave func()
	if h.Gateway {
		leave = t.JoinGateway()
	} else {
		leave = t.Join(tm)
	}
	defer func() { leave(); tm.Leave() }()
	// Attached from here on: the terminal says so only once it is.
	if tm.SendLine(protocol.HelloAnswer{Eukhe: protocol.HelloAttached}) != nil {
		return
	}
	for ctx.Err() == nil {
		line, long, err := readLine(br, maxTermLine)
		if err != nil {
			return
		}
		var a protocol.TerminalAnswer
		if long || json.Unmarshal(line, &a) != nil {
			continue
		}
		tm.Answer(a)
	}
}

// relay asks this session's chain a subagent's question; the asker
// leaving (its connection closing) ends the question.
func (t *Terminals) relay(ctx context.Context, c net.Conn, br *bufio.Reader, q gate.Question) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = br.ReadByte() // the asker sends nothing more: EOF means it left
		cancel()
	}()
	b, _ := json.Marshal(protocol.RelayAnswer{Answer: t.Relay(ctx, q).String()})
	c.Write(append(b, '\n'))
}

// ParentClient is a parent session in another process as a client of a
// subagent's question (G5 relay): it sends the question to the parent's
// approvals endpoint in a relay hello and waits for its one answer line;
// the parent's chain (its clients, its timeout, its own parents) decides.
// Cancelling the ask closes the connection, which ends the question there.
type ParentClient struct {
	// Dial connects to the parent's approvals endpoint.
	Dial func() (net.Conn, error)
	// Up tells whether the endpoint is published now; nil is always.
	Up func() bool
}

// Present is true while the parent's endpoint lives: what answers there
// is the parent's to say.
func (p ParentClient) Present() bool { return p.Up == nil || p.Up() }

// Ask relays q and waits for the parent's answer; ok is false when the
// parent cannot be reached.
func (p ParentClient) Ask(ctx context.Context, q Asked) (Reply, bool) {
	conn, err := p.Dial()
	if err != nil {
		return Reply{}, false
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	hello, _ := json.Marshal(protocol.Hello{Eukhe: protocol.HelloRelay, Question: RelayQuestionOf(q.Question), Hops: RelayHops(ctx) + 1})
	if _, err := conn.Write(append(hello, '\n')); err != nil {
		return Reply{}, false
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	var a protocol.RelayAnswer
	if err != nil || json.Unmarshal(line, &a) != nil {
		return Reply{}, false
	}
	answer, ok := gate.ParseAnswer(a.Answer)
	return Reply{Answer: answer}, ok || a.Answer == "" // no answer at all reads as unanswered
}

// Settled does nothing more: the cancelled ask closed the connection,
// which ends the question at the parent.
func (ParentClient) Settled(Asked, Settlement) {}
