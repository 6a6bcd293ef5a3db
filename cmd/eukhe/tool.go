package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate/settings"
)

const toolUsage = `Usage: eukhe tool NAME [--root DIR] [--session FILE] [ARGS-JSON | -]

Runs one tool call headless and prints its text result. The call runs in
the same session as eukhe mcp builds it: behind the approval gate, with
your settings (shell.autoEffects). Headless no one answers a question, so
a read of a secret (~/.ssh, ~/.aws, ...), a search of a directory that
holds one, and any access or step outside your auto set is refused
(unanswered) and the command exits 1. A leading ~ in a path is your home.
  --root DIR       the workspace root; relative paths are under it (default: .)
  --session FILE   keep the session's state (the versions and lines it has
                   seen) in FILE across calls, so read then edit works from a
                   shell script; without it every call is a new session
  ARGS-JSON        the tool's arguments as one JSON object; "-" reads it
                   from standard input

Tools:
  read  {"path": "src/app.go"}             rows N:text under [path#TAG]
        {"path": "src/app.go:5-9,40-60"}   selected lines ("path:120-": to
                                           the end)
        {"path": "src", "raw": true}       a directory lists its entries; raw
                                           shows text without row numbers
  edit  {"patch": "[src/app.go#7f3a91c2]\n@@ 5-7\n+new line\n"}
        sections [path#TAG] with @@ A-B (replace; no + lines deletes),
        @@ A> / @@ A< (insert after / before), @@ ^ / @@ $ (start / end),
        MV dest (move, never replaces); a section [path] without a tag
        creates a file from its + lines. All files land or none do.
  write {"path": "notes.md", "content": "..."}
        replaces a file only over a version this session saw; creates new ones

  grep  {"pattern": "func \\w+Error", "path": "src", "glob": "*.go",
         "ignoreCase": false, "literal": false, "context": 0, "skip": 0,
         "noIgnore": false}
        matching lines as read rows under [path#TAG]; a directory shows 20
        matches a file and 20 files a page (skip=N for the next); one file
        shows 200 matches ("path:L-" for the next). Every file skipped or
        cut is noted. Go RE2 syntax: linear time, no backreferences.
  glob  {"pattern": "**/*_test.go", "path": ".", "limit": 200, "skip": 0}
        matching files, newest first; .gitignore is honoured unless
        "noIgnore": true

  bash  {"script": "go test ./... 2>&1 | tail -5", "timeout": 60,
         "full_output": false}
        runs the script in process behind the approval gate (your settings'
        shell.autoEffects); headless, a step that must ask is refused
        (unanswered) and the script stops there. The call waits for the
        script (a job does not outlive the command).
  ipython {"code": "import json; json.dumps([1, 2])", "timeout": 60,
           "restart": false}
        runs a cell in the session's IPython kernel behind the approval gate
        (effect exec); inside it read(), edit(), write(), grep(), glob() and
        bash() are this session's tools. Headless it asks no one, so it runs
        only when exec is in your auto set. Needs IPython (ipython.python).
  dyn   {} lists the tools behind dyn (your mcp.servers, report_issue);
        {"name": "mcp/SERVER/TOOL", "arguments": {...}} runs one


Exit status: 0 success, 1 the tool refused or failed, 2 usage error.
`

func runTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var name, root, sessionFile, argText string
	root = "."
	haveArgs := false
	cmd := subcommand{"tool", toolUsage, stdout, stderr}
	words, code, done := cmd.parse(flags{values: map[string]*string{"--root": &root, "--session": &sessionFile}}, args)
	switch {
	case done:
		return code
	case len(words) > 2:
		return cmd.bad("one ARGS-JSON only; got another: %q", words[2])
	}
	if len(words) > 0 {
		name = words[0]
	}
	if len(words) > 1 {
		argText, haveArgs = words[1], true
	}
	if name == "" {
		return cmd.bad("which tool? " + toolList("or"))
	}
	if argText == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return cmd.bad("reading the arguments from standard input: %v", err)
		}
		argText = string(b)
	}
	if !haveArgs {
		argText = "{}"
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return cmd.bad("%v", err)
	}
	sess, save, err := openSession(sessionFile)
	if err != nil {
		return cmd.bad("%v", err)
	}
	defer save.close()
	local, err := agent.OpenLocal(agent.LocalOptions{
		Root: absRoot,
		Docs: sess,
		// One call: the settings are read once, and its transcript could
		// never be read back (memory:// is this session's alone, and the
		// session ends with the call).
		OneShot:     true,
		ShellBudget: 365 * 24 * time.Hour, // the command waits for the script: a job would not outlive it
		Events:      func(e settings.Event) { fmt.Fprintf(stderr, "eukhe tool: %s\n", e) },
		OnIssue: func(is agent.Issue) {
			fmt.Fprintf(stderr, "eukhe tool: report_issue on %s: %s\n", is.Tool, is.Description)
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, "eukhe tool: "+format+"\n", a...) },
	})
	if err != nil {
		fmt.Fprintf(stderr, "eukhe tool: %v\n", err)
		return 1
	}
	defer local.Close()
	// An interrupt cancels the call (a long grep stops at its next file,
	// and says so); a commit that has begun still finishes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := local.Call(ctx, name, json.RawMessage(argText))
	var argsErr *agent.ArgsError
	switch {
	case errors.Is(err, agent.ErrUnknownTool), errors.As(err, &argsErr):
		// a usage error, said in one line: the tool's name or its
		// arguments are the problem, not the command's options
		fmt.Fprintf(stderr, "eukhe tool: %v (eukhe tool --help shows each tool's arguments)\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "eukhe tool: %v\n", err)
		return 1
	}
	if err := save.save(sess); err != nil {
		fmt.Fprintf(stderr, "eukhe tool: the call ran, but saving the session to %s failed: %v\n", sessionFile, err)
	}
	text := res.Text()
	fmt.Fprint(stdout, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(stdout)
	}
	if res.Failed() {
		return 1
	}
	return 0
}

// sessionSaver holds the session file locked for the call, so concurrent
// calls on one session file take turns, and writes it back atomically.
type sessionSaver struct {
	path string
	lock *os.File
}

func openSession(path string) (*docs.Session, *sessionSaver, error) {
	s := docs.NewSession()
	if path == "" {
		return s, &sessionSaver{}, nil
	}
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--session %s: %v", path, err)
	}
	if err := lockSessionFile(lock); err != nil {
		lock.Close()
		return nil, nil, fmt.Errorf("--session %s: locking: %v", path, err)
	}
	sv := &sessionSaver{path: path, lock: lock}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		sv.close()
		return nil, nil, fmt.Errorf("--session %s: %v", path, err)
	case len(bytes.TrimSpace(b)) > 0:
		if err := json.Unmarshal(b, s); err != nil {
			sv.close()
			return nil, nil, fmt.Errorf("--session %s is not a session file (%v); remove it to start a new session", path, err)
		}
	}
	return s, sv, nil
}

func (sv *sessionSaver) save(s *docs.Session) error {
	if sv.path == "" {
		return nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	tmp := sv.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, sv.path)
}

func (sv *sessionSaver) close() {
	if sv.lock != nil {
		sv.lock.Close()
		sv.lock = nil
	}
}
