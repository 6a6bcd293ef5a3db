package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/eukhe/eukhe/agent/approvals"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/lsp/discovery"
	"github.com/eukhe/eukhe/protocol"
)

const approvalsUsage = `Usage: eukhe approvals [--gateway] [--root DIR]

Answers, in this terminal, the questions of the agents working in DIR
(default: the current directory): those attached to the editor's eukhe
server that serves DIR, and every headless eukhe mcp session whose root
holds DIR (each named by its session). Sessions and an editor that start
later are picked up: started before any, or after the last one ended, it
waits. Each question shows the asking agent, the step exactly as it
would run (invisible characters escaped) and its effects, and reads y or
N (Enter alone is no). The editor and the agent's own client may be asked
too; the first answer wins, and a question answered elsewhere is shown as
dropped (the next one is shown after an Enter, so a y typed for the
dropped one answers nothing).
  --gateway   attach as a gateway: no question is shown, and the gateway
              rule answers at once (a protected or secret step is refused,
              any other runs) while no interactive client is attached
  --root DIR  answer for DIR instead of the current directory
`

func runApprovals(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, gateway := ".", false
	cmd := subcommand{"approvals", approvalsUsage, stdout, stderr}
	if code, done := cmd.options(flags{values: map[string]*string{"--root": &root}, bools: map[string]*bool{"--gateway": &gateway}}, args); done {
		return code
	}
	abs, err := directory("--root", root)
	if err != nil {
		return cmd.bad("%v", err)
	}
	place, err := discovery.Open(gate.EnvFromList(os.Environ()))
	if err != nil {
		fmt.Fprintf(stderr, "eukhe approvals: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := approvals.Answer(ctx, approvals.Options{Out: stdout, Gateway: gateway, Root: abs, Find: finder{place}}, stdin); err != nil {
		fmt.Fprintf(stderr, "eukhe approvals: %v\n", err)
		return 1
	}
	return 0
}

// finder is the discovery directory, as the terminal looks for its
// sources there.
type finder struct{ place discovery.Place }

func (f finder) Editor(root string) (net.Conn, protocol.DiscoveryEntry, error) {
	return f.place.Find(root)
}

func (f finder) Sessions(root string, skip map[string]bool) ([]approvals.Endpoint, error) {
	eps, err := f.place.FindApprovals(root, skip)
	out := make([]approvals.Endpoint, len(eps))
	for i, ep := range eps {
		out[i] = approvals.Endpoint{Conn: ep.Conn, Entry: ep.Entry}
	}
	return out, err
}
