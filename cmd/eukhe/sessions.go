package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/gate"
)

const sessionsUsage = `Usage: eukhe sessions [--root DIR]

Lists the agent sessions eukhe kept (eukhe mcp and the editor's), newest
first: the session id, whether it still runs, the workspace it served, the
MCP client, when it started, how many calls it served and when the last
one ended. With --root, only the sessions of that workspace.
"eukhe log ID" shows one session's calls.
Sessions are kept in $XDG_STATE_HOME/eukhe/sessions (default
~/.local/state), each for 14 days after its last write.
`

const logUsage = `Usage: eukhe log SESSION

Shows the calls of one agent session (an id from eukhe sessions) as its
transcript keeps them (the last 200 calls or 64 MiB): for each call its
id, the time it ended, the tool and what it named, each question it asked
you and the answer, and the first line of its result (what landed, or why
not). A call in which you allowed a secret keeps no copy of its result.
The whole result of a call: read memory://ID in that session, or
agent://SESSION/ID from its parent.
`

func runSessions(args []string, stdout, stderr io.Writer) int {
	root := ""
	cmd := subcommand{"sessions", sessionsUsage, stdout, stderr}
	if code, done := cmd.options(flags{values: map[string]*string{"--root": &root}}, args); done {
		return code
	}
	if root != "" {
		abs, err := directory("--root", root)
		if err != nil {
			return cmd.bad("%v", err)
		}
		root = abs
	}
	dir := agent.SessionsDir(gate.EnvFromList(os.Environ()))
	list, err := transcript.List(dir)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe sessions: %s cannot be read: %v\n", dir, err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tSTATE\tROOT\tCLIENT\tSTARTED\tCALLS\tLAST CALL")
	n := 0
	for _, s := range list {
		if root != "" && s.Root != root {
			continue
		}
		n++
		state := "ended"
		if s.Open {
			state = "running"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", s.ID, state, orDash(oneLine(s.Root)), orDash(oneLine(s.Client)),
			when(s.Start), s.Calls, when(s.Last))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintf(stdout, "(no sessions kept in %s%s)\n", dir, map[bool]string{true: " for " + root, false: ""}[root != ""])
	}
	return 0
}

func runLog(args []string, stdout, stderr io.Writer) int {
	cmd := subcommand{"log", logUsage, stdout, stderr}
	words, code, done := cmd.parse(flags{}, args)
	if done {
		return code
	}
	if len(words) != 1 {
		return cmd.bad("name one session: eukhe log ID (eukhe sessions lists them)")
	}
	id := words[0]
	if !transcript.ValidSessionID(id) {
		return cmd.bad("%q is not a session id (letters, digits, - and _; eukhe sessions lists them)", id)
	}
	dir := agent.SessionsDir(gate.EnvFromList(os.Environ()))
	info, ok := transcript.ReadInfo(dir, id)
	if !ok {
		fmt.Fprintf(stderr, "eukhe log: no session %s is kept in %s (eukhe sessions lists those that are)\n", id, dir)
		return 1
	}
	rows, outcome, dropped, err := transcript.Calls(dir, id)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe log: the calls of session %s cannot be read: %v\n", id, err)
		return 1
	}
	state := "ended"
	if info.Open {
		state = "running"
	}
	fmt.Fprintf(stdout, "session %s (%s): root %s, client %s, started %s, %d calls\n", id, state,
		orDash(oneLine(info.Root)), orDash(oneLine(info.Client)), when(info.Start), info.Calls)
	if info.Parent != "" {
		fmt.Fprintf(stdout, "subagent of session %s\n", oneLine(info.Parent))
	}
	if dropped > 0 {
		fmt.Fprintf(stdout, "c1-c%d dropped (the transcript keeps the last 200 calls or 64 MiB)\n", dropped)
	}
	for i, r := range rows {
		state := ""
		switch {
		case r.Withheld:
			state = " [you allowed a secret: no copy kept]"
		case r.Failed:
			state = " [refused or failed]"
		}
		fmt.Fprintf(stdout, "%s %s %s %s%s\n", r.ID, when(r.Time), r.Tool, r.Summary, state)
		for _, q := range r.Asked {
			fmt.Fprintf(stdout, "    asked: %s\n", q)
		}
		if shown := landed(r, outcome[i]); shown != "" {
			fmt.Fprintf(stdout, "    → %s\n", shown)
		}
	}
	return 0
}

// landed is the line of a call's result that says what it did: the first
// line of an edit's or a write's reply, and of any refusal; "" for reads
// and searches, whose first line is what they found.
func landed(r transcript.CallRow, first string) string {
	if r.Withheld {
		return ""
	}
	if r.Failed || r.Tool == "edit" || r.Tool == "write" {
		first = oneLine(first)
		if len([]rune(first)) > 160 {
			first = string([]rune(first)[:159]) + "…"
		}
		return first
	}
	return ""
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// oneLine is a field shown on one line: every character that does not
// print escaped (gate.VisibleText), a newline and a tab too.
func oneLine(s string) string {
	s = strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s)
	return gate.VisibleText(s)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
