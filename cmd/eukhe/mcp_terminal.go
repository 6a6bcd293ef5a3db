package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// mcpOnTerminal is what eukhe mcp says once, on standard error, when a
// person started it on a terminal: it waits for a client that never comes.
const mcpOnTerminal = `eukhe mcp: waiting for an MCP client on standard input (JSON-RPC, one message a line).
  It is meant to be started by an agent: add it to one, e.g. claude mcp add eukhe -- eukhe mcp
  (eukhe mcp --help; README.md "Connect an agent" has Codex and Cursor, guide/clients.md the others).
  To try a tool by hand: eukhe tool read '{"path": "README.md"}' (eukhe tool --help lists them).
  Ctrl-D or Ctrl-C ends this.
`

// sayWhenOnTerminal tells a person who started eukhe mcp by hand what it
// waits for; a client's pipe hears nothing.
func sayWhenOnTerminal(stdin io.Reader, stderr io.Writer) {
	if onTerminal(stdin) {
		fmt.Fprint(stderr, mcpOnTerminal)
	}
}

// onTerminal reports whether r is a terminal.
func onTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
