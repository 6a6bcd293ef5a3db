package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
)

// publishSession makes a headless session's approvals endpoint and
// publishes it on the discovery socket (issue 14), so that `eukhe
// approvals` in the root lists and answers its questions. The endpoint is
// the session's own approval sink. When the socket cannot be made, the
// session runs without it and stderr says why.
func publishSession(ctx context.Context, root, id, parent string, current func() settings.Settings, stderr io.Writer) (*agent.Terminals, func()) {
	terms := &agent.Terminals{Timeout: func() time.Duration { return current().ApprovalTimeout }}
	dir, err := discovery.Dir(gate.EnvFromList(os.Environ()))
	if err == nil {
		var l *discovery.Listener
		l, err = discovery.ListenEntry(dir, discovery.Entry{Kind: discovery.KindApprovals, Roots: []string{root}, Session: id, Parent: parent})
		if err == nil {
			ctx, cancel := context.WithCancel(ctx)
			go terms.Serve(ctx, l)
			return terms, func() { cancel(); l.Close() }
		}
	}
	fmt.Fprintf(stderr, "eukhe mcp: no approvals endpoint for `eukhe approvals` (%v); questions go to the agent's client only when it supports elicitation\n", err)
	return terms, func() {}
}
