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
	"strings"
	"syscall"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

const toolUsage = `Usage: eukhe tool NAME [--root DIR] [--session FILE] [ARGS-JSON | -]

Runs one tool call headless and prints its text result.
  --root DIR       the workspace root; relative paths are under it (default: .)
  --session FILE   keep the session's state (the versions and lines it has
                   seen) in FILE across calls, so read then edit works from a
                   shell script; without it every call is a new session
  ARGS-JSON        the tool's arguments as one JSON object; "-" reads it
                   from standard input

Tools:
  read  {"path": "src/app.go"}             rows N:text under [path#TAG]
        {"path": "src/app.go:5-9,40-60"}   selected lines; "path:120-" to the end
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

  bash  {"script": "go test ./... 2>&1 | tail -5", "timeout": 60, "full_output": false}
        runs the script in process behind the approval gate (your settings'
        shell.autoEffects); headless, a step that must ask is refused
        (unanswered) and the script stops there. The call waits for the
        script (a job does not outlive the command).

Exit status: 0 success, 1 the tool refused or failed, 2 usage error.
`

func runTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var name, root, sessionFile, argText string
	root = "."
	haveArgs := false
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "eukhe tool: "+format+"\n\n%s", append(a, toolUsage)...)
		return 2
	}
	words, err := flags{values: map[string]*string{"--root": &root, "--session": &sessionFile}}.parse(args)
	switch {
	case err == errHelp:
		fmt.Fprint(stdout, toolUsage)
		return 0
	case err != nil:
		return bad("%v", err)
	case len(words) > 2:
		return bad("one ARGS-JSON only; got another: %q", words[2])
	}
	if len(words) > 0 {
		name = words[0]
	}
	if len(words) > 1 {
		argText, haveArgs = words[1], true
	}
	if name == "" {
		return bad("which tool? read, edit, write, grep, glob or bash")
	}
	if argText == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return bad("reading the arguments from standard input: %v", err)
		}
		argText = string(b)
	}
	if !haveArgs {
		argText = "{}"
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return bad("%v", err)
	}
	sess, save, err := openSession(sessionFile)
	if err != nil {
		return bad("%v", err)
	}
	defer save.close()
	disk := docs.NewDisk()
	disk.Journal, disk.Root = docs.JournalDir(gate.EnvFromList(os.Environ()), absRoot), absRoot
	disk.Recover()
	tools := &docs.Tools{Store: disk, Session: sess, Root: absRoot}
	res, usageErr := call(tools, name, argText)
	res = withRecovered(res, disk, tools)
	if usageErr != nil {
		return bad("%v", usageErr)
	}
	if err := save.save(sess); err != nil {
		fmt.Fprintf(stderr, "eukhe tool: the call ran, but saving the session to %s failed: %v\n", sessionFile, err)
	}
	fmt.Fprint(stdout, res.Text)
	if !strings.HasSuffix(res.Text, "\n") {
		fmt.Fprintln(stdout)
	}
	if res.Failed {
		return 1
	}
	return 0
}

// call runs one tool: bash here, the document tools through docs.Call;
// the arguments are decoded strictly.
func call(t *docs.Tools, name, argText string) (docs.Result, error) {
	if name == "bash" {
		var a struct {
			I          string   `json:"i"`
			Script     string   `json:"script"`
			Timeout    *float64 `json:"timeout"`
			FullOutput bool     `json:"full_output"`
		}
		d := json.NewDecoder(strings.NewReader(argText))
		d.DisallowUnknownFields()
		if err := d.Decode(&a); err != nil {
			return docs.Result{}, fmt.Errorf("bash arguments: %v (run eukhe tool --help for each tool's arguments)", err)
		}
		if a.Script == "" {
			return docs.Result{}, fmt.Errorf("bash needs a script: {\"script\": \"ls\"}")
		}
		return runBash(t.Root, a.Script, a.Timeout, a.FullOutput), nil
	}
	res, err := docs.Call(t, name, []byte(argText))
	switch {
	case errors.Is(err, docs.ErrUnknownTool):
		return res, fmt.Errorf("unknown tool %q: read, edit, write, grep, glob or bash", name)
	case err != nil:
		return res, fmt.Errorf("%v (run eukhe tool --help for each tool's arguments)", err)
	}
	return res, nil
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
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
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
		syscall.Flock(int(sv.lock.Fd()), syscall.LOCK_UN)
		sv.lock.Close()
		sv.lock = nil
	}
}

// runBash runs one script headless: the gate with the user's settings, no
// client attached, so a step that must ask is unanswered. The command
// waits for the script to end: a job would not outlive it.
func runBash(root, script string, timeout *float64, full bool) docs.Result {
	env := gate.EnvFromList(os.Environ())
	paths := settings.Locate(env, []string{root})
	current, events := settings.Load(paths)
	for _, e := range events {
		if e.Level != settings.Info {
			fmt.Fprintf(os.Stderr, "eukhe tool: %s\n", e)
		}
	}
	r := &shell.Runner{
		Root:   root,
		Budget: 365 * 24 * time.Hour,
		Gate: shell.Gate{Policy: paths.Places(env).Policy(gate.OS),
			Auto: func() gate.AutoSet { return current.AutoEffects }, Chain: gate.Chain{}},
	}
	req := shell.Request{Script: script, FullOutput: full}
	if timeout != nil && *timeout > 0 {
		req.Timeout = time.Duration(*timeout * float64(time.Second))
	}
	res := r.Run(context.Background(), req)
	return docs.Result{Text: res.Text, Failed: res.Failed}
}

// withRecovered tells, after the call's reply, what this start recovered
// of interrupted commits (DESIGN.md §10).
func withRecovered(res docs.Result, disk *docs.Disk, tools *docs.Tools) docs.Result {
	for _, r := range disk.TakeRecovered() {
		res.Text = strings.TrimRight(res.Text, "\n") + "\n[notice] " + r.Text(tools.Display)
	}
	return res
}
