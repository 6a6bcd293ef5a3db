package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
	"github.com/eukhe/eukhe/protocol"
)

// publishSession makes a headless session's approvals endpoint and
// publishes it on the discovery socket, so that `eukhe
// approvals` in the root lists and answers its questions. The endpoint is
// the session's own approval sink. When the socket cannot be made, the
// session runs without it and stderr says why.
func publishSession(ctx context.Context, root, id, parent string, current func() settings.Settings, stderr io.Writer) (*agent.Terminals, func()) {
	terms := &agent.Terminals{}
	terms.Timeout = func() time.Duration { return current().ApprovalTimeout }
	dir, err := discovery.Dir(gate.EnvFromList(os.Environ()))
	if err == nil {
		var l *discovery.Listener
		l, err = discovery.ListenEntry(dir, protocol.DiscoveryEntry{Kind: protocol.KindApprovals, Roots: []string{root}, Session: id, Parent: parent})
		if err == nil {
			ctx, cancel := context.WithCancel(ctx)
			go terms.Serve(ctx, l)
			return terms, func() { cancel(); l.Close() }
		}
	}
	fmt.Fprintf(stderr, "eukhe mcp: no approvals endpoint for `eukhe approvals` (%v); questions go to the agent's client only when it supports elicitation\n", err)
	return terms, func() {}
}

// remoteParents gives the client of a parent session that runs headless
// in another process: its approvals endpoint, which asks the parent's
// chain (its client, its terminals, its own parents) and answers (G5
// relay). It is the whole sink of that link (agent.ClientSink).
func remoteParents() func(parent string) agent.Client {
	return func(parent string) agent.Client { return remoteParent{id: parent} }
}

type remoteParent struct{ id string }

func (r remoteParent) dir() (string, error) { return discovery.Dir(gate.EnvFromList(os.Environ())) }

// Present is true while the parent's endpoint lives: what answers there is
// the parent's to say.
func (r remoteParent) Present() bool {
	dir, err := r.dir()
	if err != nil {
		return false
	}
	_, _, ok := discovery.LookupSession(dir, r.id)
	return ok
}

// Ask relays q to the parent and waits for its answer; ok is false when
// the parent cannot be reached.
func (r remoteParent) Ask(ctx context.Context, q agent.Asked) (agent.Reply, bool) {
	dir, err := r.dir()
	if err != nil {
		return agent.Reply{}, false
	}
	conn, _, err := discovery.FindSession(dir, r.id)
	if err != nil {
		return agent.Reply{}, false
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	hello, _ := json.Marshal(protocol.Hello{Eukhe: protocol.HelloRelay, Question: agent.RelayQuestionOf(q.Question), Hops: agent.RelayHops(ctx) + 1})
	if _, err := conn.Write(append(hello, '\n')); err != nil {
		return agent.Reply{}, false
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	var a protocol.RelayAnswer
	if err != nil || json.Unmarshal(line, &a) != nil {
		return agent.Reply{}, false
	}
	answer, ok := gate.ParseAnswer(a.Answer)
	return agent.Reply{Answer: answer}, ok || a.Answer == "" // no answer at all reads as unanswered
}

// Settled does nothing more: the cancelled ask closed the connection,
// which ends the question at the parent.
func (remoteParent) Settled(agent.Asked, agent.Settlement) {}
