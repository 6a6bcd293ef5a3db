package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/agent/attach"
	"github.com/eukhe/eukhe/agent/roots"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
)

var mcpUsage = `Usage: eukhe mcp [--root DIR] [--parent SESSION]

Serves the agent's tools over MCP on standard input and output (one
JSON-RPC message a line): ` + toolList("and") + `.
  --root DIR         the workspace root (default: the client's first root
                     when it offers roots, else the current directory)
  --parent SESSION   the session whose clients answer this one's questions
                     (a subagent's parent); also taken from initialize's
                     _meta "eukhe/parent"

When an editor's eukhe server serves the root, the tools reach its buffers
and dialogs (an editor that comes up later is found at the next tool
call); otherwise they run headless on the disk, and a step or access
that needs the user's approval asks the agent's own client (when it
supports MCP elicitation; approval.elicitation: false turns that off) and
every eukhe approvals started in the root; unanswered, it is refused
with a message saying why.
Settings: $XDG_CONFIG_HOME/eukhe/settings.json (default ~/.config/eukhe):
shell.autoEffects, mcp.servers (the tools behind dyn), ssh.hosts,
approval.elicitation. The session's log (report_issue rows) is
$XDG_STATE_HOME/eukhe/sessions/ID.jsonl (default ~/.local/state), and its
transcript (every call's whole result, for read memory://) is
$XDG_STATE_HOME/eukhe/sessions/ID/. Diagnostics go to standard error.

Use it from an agent:  claude mcp add eukhe -- eukhe mcp
`

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, parent := "", ""
	cmd := subcommand{"mcp", mcpUsage, stdout, stderr}
	if code, done := cmd.options(flags{values: map[string]*string{"--root": &root, "--parent": &parent}}, args); done {
		return code
	}
	given := root != ""
	if !given {
		root = "."
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return cmd.bad("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sayWhenOnTerminal(stdin, stderr)
	why := "--root"
	if !given {
		if stdin == os.Stdin {
			stdin = pollableStdin()
		}
		c := roots.Choose(ctx, stdin, stdout, absRoot, stderr)
		absRoot, why, stdin, stdout = c.Root, c.Why, c.In, c.Out
	}
	fmt.Fprintf(stderr, "eukhe mcp: serving %s (%s)\n", absRoot, why)

	headlessWhy, note := "no editor serves this root", ""
	if conn, ok := editorFor(absRoot); ok {
		code, attached, in, quit := attach.Attach(ctx, conn, absRoot, parent, stdin, stdout, stderr)
		if attached && in == nil {
			return code
		}
		if attached { // the editor's server went away: go on headless
			stdin, note, headlessWhy = in, quit, "from here on, the same MCP session"
		}
	}

	terms, unpublish := (*agent.Terminals)(nil), func() {}
	local, err := agent.OpenLocal(agent.LocalOptions{
		Root:   absRoot,
		Parent: parent,
		Sink: func(id string, current func() settings.Settings) route.Asker {
			terms, unpublish = publishSession(ctx, absRoot, id, parent, current, stderr)
			return terms
		},
		Remote: remoteParents(),
		Events: func(e settings.Event) { fmt.Fprintf(stderr, "eukhe mcp: %s\n", e) },
		OnIssue: func(is agent.Issue) {
			fmt.Fprintf(stderr, "eukhe mcp: report_issue on %s: %s\n", is.Tool, is.Description)
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, "eukhe mcp: "+format+"\n", a...) },
	})
	if err != nil {
		unpublish()
		fmt.Fprintf(stderr, "eukhe mcp: %v\n", err)
		return 1
	}
	defer local.Close()
	defer unpublish()
	terms.Relay = local.Host.RelayTo(local.ID)
	fmt.Fprintf(stderr, "eukhe mcp: session %s on %s (headless: %s)\n", local.ID, absRoot, headlessWhy)
	if os.Getenv("GOGC") == "" {
		// A call allocates tens of KiB in the SDK and the heap stays small:
		// at the default target the collector would run every few dozen
		// calls. A larger target keeps it off most calls.
		debug.SetGCPercent(400)
	}
	if stdin == os.Stdin {
		stdin = pollableStdin()
	}
	// The editor is looked for again at each tool call (agent/attach).
	hin, hout := attach.NewLateSwitch(absRoot, parent, editorFor, stdin, stdout, stderr, note)
	err = local.Serve(ctx, &agent.LineTransport{In: hin, Out: hout})
	if err != nil && err != io.EOF {
		fmt.Fprintf(stderr, "eukhe mcp: %v\n", err)
		return 1
	}
	return 0
}

// editorFor finds the editor's eukhe server that serves root (DESIGN.md
// §7): the live server in the per-user discovery directory whose deepest
// workspace root holds root. None found: eukhe mcp runs headless.
//
// The editor's server runs the same agent sessions (agent.Serve) over its
// own agent.Host — its buffers as the docs.Store, its dialogs as the
// sessions' approval sink, its settings watch — so attaching is only a
// pipe: this process writes one hello line naming the root and the
// parent, then copies MCP between its stdio and the socket.
//
// A headless session asks at each tools/call; a discovery.Finder makes a
// call where nothing changed cost one stat (the look in full was a fifth
// of a small read's time).
var editorFor = func(root string) (io.ReadWriteCloser, bool) {
	f, err := editorFinder()
	if err != nil {
		return nil, false
	}
	conn, _, err := f.Find(root)
	if err != nil {
		return nil, false
	}
	return conn, true
}

var (
	findersMu sync.Mutex
	finders   = map[string]*discovery.Finder{}
)

// editorFinder is the Finder of the discovery directory the environment
// names now (tests change it), made at its first use; later calls cost no
// system call.
func editorFinder() (*discovery.Finder, error) {
	key := os.Getenv("XDG_RUNTIME_DIR") + "\x00" + os.Getenv("TMPDIR") + "\x00" + os.Getenv("LOCALAPPDATA") +
		"\x00" + os.Getenv("XDG_STATE_HOME") + "\x00" + os.Getenv("HOME")
	findersMu.Lock()
	defer findersMu.Unlock()
	if f := finders[key]; f != nil {
		return f, nil
	}
	place, err := discovery.Open(gate.EnvFromList(os.Environ()))
	if err != nil {
		return nil, err
	}
	f := &discovery.Finder{Place: place}
	finders[key] = f
	return f, nil
}
