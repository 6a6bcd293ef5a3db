package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
)

const mcpUsage = `Usage: eukhe mcp [--root DIR] [--parent SESSION]

Serves the agent's tools over MCP on standard input and output (one
JSON-RPC message a line): read, edit, write, grep, glob, bash and dyn.
  --root DIR         the workspace root (default: the current directory)
  --parent SESSION   the session whose clients answer this one's questions
                     (a subagent's parent); also taken from initialize's
                     _meta "eukhe/parent"

When an editor's eukhe server serves the root, the tools reach its buffers
and dialogs; otherwise they run headless on the disk, and a step or access
that needs the user's approval is refused with a message saying why.
Settings: $XDG_CONFIG_HOME/eukhe/settings.json (default ~/.config/eukhe):
shell.autoEffects, mcp.servers (the tools behind dyn), ssh.hosts. The
session's log (report_issue rows) is $XDG_STATE_HOME/eukhe/sessions/ID.jsonl
(default ~/.local/state). Diagnostics go to standard error.

Use it from an agent:  claude mcp add eukhe -- eukhe mcp
`

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, parent := ".", ""
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "eukhe mcp: "+format+"\n\n%s", append(a, mcpUsage)...)
		return 2
	}
	words, err := flags{values: map[string]*string{"--root": &root, "--parent": &parent}}.parse(args)
	switch {
	case err == errHelp:
		fmt.Fprint(stdout, mcpUsage)
		return 0
	case err != nil:
		return bad("%v", err)
	case len(words) > 0:
		return bad("unknown argument %q", words[0])
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return bad("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if conn, ok := editorFor(absRoot); ok {
		if code, attached := attach(ctx, conn, absRoot, parent, stdin, stdout, stderr); attached {
			return code
		}
	}

	env := gate.EnvFromList(os.Environ())
	paths := settings.Locate(env, []string{absRoot})
	w, err := settings.Watch(paths, func(e settings.Event) {
		if e.Level != settings.Info {
			fmt.Fprintf(stderr, "eukhe mcp: %s\n", e)
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "eukhe mcp: %v\n", err)
		return 1
	}
	defer w.Close()
	disk := docs.NewDisk()
	disk.Journal, disk.Root = docs.JournalDir(env, absRoot), absRoot
	for _, r := range disk.Recover() { // before any write (DESIGN.md §10); the first reply tells the model too
		fmt.Fprintf(stderr, "eukhe mcp: %s\n", r.Text(func(p string) string { return p }))
	}
	host := &agent.Headless{
		RootDir: absRoot,
		Disk:    disk,
		Current: w.Current,
		Paths:   paths.Places(env).Policy(gate.OS),
		OnIssue: func(is agent.Issue) {
			fmt.Fprintf(stderr, "eukhe mcp: report_issue on %s: %s\n", is.Tool, is.Description)
		},
	}
	id := agent.NewID()
	fmt.Fprintf(stderr, "eukhe mcp: session %s on %s (headless: no editor serves this root)\n", id, absRoot)
	if os.Getenv("GOGC") == "" {
		// A call allocates tens of KiB in the SDK and the heap stays small:
		// at the default target the collector would run every few dozen
		// calls. A larger target keeps it off most calls.
		debug.SetGCPercent(400)
	}
	if stdin == os.Stdin {
		stdin = pollableStdin()
	}
	err = agent.Serve(ctx, &agent.LineTransport{In: stdin, Out: stdout}, agent.Options{
		Host:      host,
		ID:        id,
		Parent:    parent,
		LogPath:   agent.SessionLogPath(env, id),
		SkillDirs: []string{filepath.Join(absRoot, ".eukhe", "skills"), filepath.Join(paths.UserDir, "skills")},
		Logf:      func(format string, a ...any) { fmt.Fprintf(stderr, "eukhe mcp: "+format+"\n", a...) },
	})
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
var editorFor = func(root string) (io.ReadWriteCloser, bool) {
	dir, err := discovery.Dir(gate.EnvFromList(os.Environ()))
	if err != nil {
		return nil, false
	}
	conn, _, err := discovery.Find(dir, root)
	if err != nil {
		return nil, false
	}
	return conn, true
}

// attach pipes this process's stdio to the editor's server. At the end of
// standard input the socket's write side is closed and the server's last
// answers are still copied out.
func attach(ctx context.Context, conn io.ReadWriteCloser, root, parent string, stdin io.Reader, stdout, stderr io.Writer) (code int, attached bool) {
	defer conn.Close()
	hello, _ := json.Marshal(map[string]string{"eukhe": "attach", "root": root, "parent": parent})
	var ack struct {
		Eukhe, Session, Error string
	}
	br := bufio.NewReader(conn)
	_, err := conn.Write(append(hello, '\n'))
	if err == nil {
		var line []byte
		if line, err = br.ReadBytes('\n'); err == nil {
			err = json.Unmarshal(line, &ack)
		}
	}
	if err == nil && ack.Eukhe != "attached" {
		err = fmt.Errorf("%s", ack.Error)
	}
	if err != nil {
		fmt.Fprintf(stderr, "eukhe mcp: the editor's server did not take the session (%v); running headless\n", err)
		return 0, false
	}
	fmt.Fprintf(stderr, "eukhe mcp: session %s attached to the editor's server for %s\n", ack.Session, root)
	out := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, stdin)
		if cw, ok := conn.(interface{ CloseWrite() error }); ok && err == nil {
			cw.CloseWrite()
			return
		}
		conn.Close()
	}()
	go func() { _, err := io.Copy(stdout, br); out <- err }()
	select {
	case <-out:
	case <-ctx.Done():
	}
	return 0, true
}

// pollableStdin is standard input read through the runtime's poller when
// it is a pipe or a socket (as an MCP client starts us): a read then needs
// no thread of its own, and closing the session ends a read in progress.
// A terminal or a file is left as it is.
func pollableStdin() io.Reader {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin
	}
	if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFIFO && kind != syscall.S_IFSOCK {
		return os.Stdin
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}
