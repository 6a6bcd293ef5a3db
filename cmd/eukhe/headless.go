package main

import (
	"context"
	"fmt"
	"io"
	"net"
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
	place, err := discovery.Open(gate.EnvFromList(os.Environ()))
	if err == nil {
		var l *discovery.Listener
		l, err = place.ListenEntry(protocol.DiscoveryEntry{Kind: protocol.KindApprovals, Roots: []string{root}, Session: id, Parent: parent})
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
// in another process: its approvals endpoint found on the discovery
// socket (agent.ParentClient, G5 relay), the whole sink of that link.
func remoteParents() func(parent string) agent.Client {
	return func(parent string) agent.Client {
		return agent.ParentClient{
			Dial: func() (net.Conn, error) {
				place, err := discovery.Open(gate.EnvFromList(os.Environ()))
				if err != nil {
					return nil, err
				}
				conn, _, err := place.FindSession(parent)
				return conn, err
			},
			Up: func() bool {
				place, err := discovery.Open(gate.EnvFromList(os.Environ()))
				if err != nil {
					return false
				}
				_, _, ok := place.LookupSession(parent)
				return ok
			},
		}
	}
}
