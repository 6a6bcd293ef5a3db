// Command eukhe is the one binary of eukhe: an agent's document and shell
// tools, served inside the editor or headless on a directory. It holds no
// logic beyond wiring; the laws live in the packages it calls. Its help
// fits 80 columns, and names the agent's tools from the roster
// (roster_names.go; TestHelp_fits_80_columns_and_names_the_roster).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

var usage = `eukhe — an agent's document and shell tools, inside your editor or headless.

Usage:
  eukhe tool NAME [--root DIR] [--session FILE] [ARGS-JSON | -]
      Run one tool call headless on DIR (default: the current directory)
      and print its text result. Exit 0 on success, 1 when the tool
      refused or failed (the text says why), 2 on a usage error.
      Run "eukhe tool --help" for the tools and their arguments.
  eukhe mcp [--root DIR] [--parent SESSION]
      Serve the tools to an agent over MCP on standard input and output:
      ` + toolList("and") + `,
      on DIR (default: the client's first root when it offers roots, else
      the current directory). Add it to an agent:
      claude mcp add --scope user eukhe -- eukhe mcp
      Run "eukhe mcp --help" for more.
  eukhe lsp [--root DIR]
      Serve the editor over LSP on standard input and output: the agent's
      reads see the editor's open buffers, unsaved text included, and its
      edits land in them as verified workspace edits. Configure it in the
      editor as a language server for every file type.
      Run "eukhe lsp --help" for more.
  eukhe approvals [--gateway] [--root DIR]
      Answer the agents' questions in this terminal: attach to the
      editor's eukhe server for DIR and to every headless eukhe mcp
      session there, show each gated step (the asking agent, the step as
      it would run, its effects) and read y or N (Enter alone is no).
      With --gateway, ask nothing: the gateway rule answers.
      Run "eukhe approvals --help" for more.
  eukhe check [--json] [--cwd DIR] SCRIPT
      Show how the gate reads a bash script, without running it: each
      step as it would run (invisible characters escaped), its effects,
      and whether it runs unasked under shell.autoEffects or asks first;
      then how each program a step runs is confined (bubblewrap,
      landlock or none, and why); the last line names the auto set in
      force and where it came from.
  eukhe settings [--root DIR]
      Print the settings in force for DIR (default: the current
      directory), each key with its value and the file that set it (or
      "default"), then the files read. The keys: SETTINGS.md.
  eukhe sessions [--root DIR]
      List the agent sessions kept, newest first: id, running or ended,
      root, client, start, calls and the last call's time.
  eukhe log SESSION
      Show one session's calls: time, tool, what it named, the questions
      it asked and their answers, and what landed.
  eukhe version, eukhe --version
      The version: the module version and the VCS revision it was built
      from (what MCP's serverInfo and the LSP handshake report).
  eukhe --help
      This text.

Options take one dash or two: -root DIR is --root DIR.
`

func main() {
	if len(os.Args) > 1 && os.Args[1] == shell.ConfineArg {
		// The Landlock re-run of a confined step: apply, then exec.
		os.Exit(shell.ConfineMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == settings.LingerArg {
		// The holder of the shells asked for PATH that this eukhe's
		// parent left running at its exit.
		os.Exit(settings.LingerMain(os.Args[2:]))
	}
	stop := startProfile()
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	settings.HandOffAskedShells() // not cut short by this exit
	os.Exit(code)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "eukhe %s\n", agent.Version)
		return 0
	case "settings":
		return runSettings(args[1:], stdout, stderr)
	case "tool":
		settings.WarmShellPathDirs(gate.EnvFromList(os.Environ()))
		return runTool(args[1:], stdin, stdout, stderr)
	case "mcp":
		settings.WarmShellPathDirs(gate.EnvFromList(os.Environ())) // while the client's handshake runs
		return runMCP(args[1:], stdin, stdout, stderr)
	case "lsp":
		settings.WarmShellPathDirs(gate.EnvFromList(os.Environ()))
		return runLSP(args[1:], stdin, stdout, stderr)
	case "approvals":
		return runApprovals(args[1:], stdin, stdout, stderr)
	case "check":
		return runCheck(args[1:], stdin, stdout, stderr)
	case "sessions":
		return runSessions(args[1:], stdout, stderr)
	case "log":
		return runLog(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "eukhe: unknown command %q\n\n%s", args[0], usage)
	return 2
}
