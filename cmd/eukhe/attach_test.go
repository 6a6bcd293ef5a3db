package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/lsp"
	"github.com/eukhe/eukhe/protocol"
)

// A real eukhe mcp process attaches to the editor's server through a real
// discovery socket: its read sees the editor's unsaved buffer, and its
// gated step is a question the editor (or an eukhe approvals terminal)
// answers.

// attachEnv is an environment of its own: the socket directory, the user
// settings (auto set narrowed to read) and the state directory.
func attachEnv(t *testing.T) []string {
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	os.MkdirAll(filepath.Join(cfg, "eukhe"), 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "eukhe", "settings.json"), []byte(`{"shell.autoEffects": ["read"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// A short directory: a socket's path has at most 107 bytes.
	run, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_RUNTIME_DIR=" + run, "PATH=" + os.Getenv("PATH")}
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// editor is an in-process LSP client of an in-process eukhe lsp that
// listens on its discovery socket.
type editor struct {
	t      *testing.T
	root   string
	conn   jsonrpc2.Conn
	mu     sync.Mutex
	asked  []protocol.ApproveParams
	answer func(n int) string // "" never answers
	// settled are the eukhe/approvalSettled notices the editor got.
	settled []protocol.ApprovalSettledParams
}

func startEditor(t *testing.T, env []string, answer func(n int) string) *editor {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	return startEditorAt(t, env, root, answer)
}

// startEditorAt is startEditor on a root of the caller's.
func startEditorAt(t *testing.T, env []string, root string, answer func(n int) string) *editor {
	e := &editor{t: t, root: root, answer: answer}
	srv := lsp.New(lsp.Options{Root: root, Env: envMap(env), Discover: true})
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { srv.Serve(ctx, a); close(served) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	hold := make(chan struct{})
	e.conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodApprovalSettled {
			var p protocol.ApprovalSettledParams
			json.Unmarshal(req.Params(), &p)
			e.mu.Lock()
			e.settled = append(e.settled, p)
			e.mu.Unlock()
			return nil, nil
		}
		if req.Method() != protocol.MethodApprove {
			return nil, nil
		}
		var p protocol.ApproveParams
		json.Unmarshal(req.Params(), &p)
		e.mu.Lock()
		e.asked = append(e.asked, p)
		a := e.answer(len(e.asked))
		e.mu.Unlock()
		if a == "" {
			jsonrpc2.Async(ctx)
			<-hold
		}
		return protocol.ApproveResult{Answer: a}, nil
	})
	t.Cleanup(func() {
		close(hold)
		var r json.RawMessage
		e.conn.Call(context.Background(), "shutdown", nil, &r)
		e.conn.Notify(context.Background(), "exit", nil)
		select {
		case <-served:
		case <-time.After(30 * time.Second):
			t.Error("the server did not end")
		}
		cancel()
		e.conn.Close()
	})
	var res json.RawMessage
	ex := map[string]any{"eukhe": map[string]any{"kind": "test", "methods": []string{protocol.MethodApprove, protocol.MethodApprovalSettled}}}
	if _, err := e.conn.Call(context.Background(), "initialize", map[string]any{
		"rootUri":      "file://" + root,
		"clientInfo":   map[string]any{"name": "testeditor"},
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true}, "experimental": ex},
	}, &res); err != nil {
		t.Fatal(err)
	}
	e.conn.Notify(context.Background(), "initialized", map[string]any{})
	// The socket listens once initialized is handled.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if editorEntries(env) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no discovery file")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return e
}

// editorEntries counts the editors' discovery files (a headless session's
// approvals endpoint is not one).
func editorEntries(env []string) int {
	files, _ := filepath.Glob(filepath.Join(envMap(env)["XDG_RUNTIME_DIR"], "eukhe", "*.json"))
	n := 0
	for _, f := range files {
		var e protocol.DiscoveryEntry
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &e) == nil && e.Kind == "" {
			n++
		}
	}
	return n
}

func (e *editor) open(name, text string) {
	e.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": "file://" + filepath.Join(e.root, name), "languageId": "plaintext", "version": 1, "text": text}})
}

// mcpProc is a real eukhe mcp process.
type mcpProc struct {
	t       *testing.T
	in      io.WriteCloser
	out     *bufio.Reader
	stderr  *strings.Builder
	stderrW *lockedWriter
	id      int
}

func startMCP(t *testing.T, env []string, dir string, args ...string) *mcpProc {
	return startMCPWith(t, env, dir, true, args...)
}

func startMCPWith(t *testing.T, env []string, dir string, initialize bool, args ...string) *mcpProc {
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	p := &mcpProc{t: t, in: in, out: bufio.NewReader(out), stderr: &strings.Builder{}}
	p.stderrW = &lockedWriter{w: p.stderr}
	cmd.Stderr = p.stderrW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("eukhe mcp did not end at the end of its input")
		}
	})
	if initialize {
		p.initialize(nil)
	}
	return p
}

// startMCPUninitialized is startMCP before initialize: the caller sends it
// (p.initialize) with the _meta it needs.
func startMCPUninitialized(t *testing.T, env []string, dir string, args ...string) *mcpProc {
	return startMCPWith(t, env, dir, false, args...)
}

func (p *mcpProc) initialize(meta map[string]any) {
	params := map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}}
	if meta != nil {
		params["_meta"] = meta
	}
	p.rpc("initialize", params)
	p.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (p *mcpProc) send(v any) {
	b, _ := json.Marshal(v)
	p.in.Write(append(b, '\n'))
}

func (p *mcpProc) rpc(method string, params any) json.RawMessage {
	p.t.Helper()
	p.id++
	p.send(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method, "params": params})
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			p.t.Fatalf("%s: eukhe mcp ended: %v", method, err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil || *m.ID != p.id {
			continue
		}
		if m.Error != nil {
			p.t.Fatalf("%s: %s", method, m.Error)
		}
		return m.Result
	}
}

func (p *mcpProc) call(name string, args any) (string, bool) {
	p.t.Helper()
	raw := p.rpc("tools/call", map[string]any{"name": name, "arguments": args})
	var r struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		p.t.Fatalf("%s: %s", name, raw)
	}
	return r.Content[0].Text, r.IsError
}

func TestEukheMCPAttachesToTheEditorThroughTheSocket(t *testing.T) {
	env := attachEnv(t)
	e := startEditor(t, env, func(n int) string { return map[int]string{1: "approve", 2: "deny"}[n] })
	os.WriteFile(filepath.Join(e.root, "a.txt"), []byte("on disk\n"), 0o644)
	e.open("a.txt", "unsaved in the editor\n")
	sub := filepath.Join(e.root, "sub")
	os.Mkdir(sub, 0o755)
	ag := startMCP(t, env, sub)
	if text, failed := ag.call("read", map[string]any{"path": "../a.txt"}); failed || !strings.Contains(text, "1:unsaved in the editor") {
		t.Fatalf("read through the editor:\n%s\n%s", text, ag.stderr)
	}
	if text, failed := ag.call("bash", map[string]any{"script": "echo yes > approved.txt"}); failed {
		t.Fatalf("approved step: %s", text)
	}
	if b, _ := os.ReadFile(filepath.Join(sub, "approved.txt")); string(b) != "yes\n" {
		t.Fatalf("approved.txt: %q", b)
	}
	text, _ := ag.call("bash", map[string]any{"script": "echo no > denied.txt"})
	if _, err := os.Stat(filepath.Join(sub, "denied.txt")); err == nil || !strings.Contains(text, "denied") {
		t.Fatalf("denied step: %s", text)
	}
	e.mu.Lock()
	n := len(e.asked)
	e.mu.Unlock()
	if n != 2 {
		t.Fatalf("the editor was asked %d times", n)
	}
}

func TestEukheApprovalsAnswersInATerminal(t *testing.T) {
	env := attachEnv(t)
	e := startEditor(t, env, func(int) string { return "" }) // the editor never answers
	ap := exec.Command(binary, "approvals")
	ap.Dir, ap.Env = e.root, env
	stdin, _ := ap.StdinPipe()
	stdout, _ := ap.StdoutPipe()
	if err := ap.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); ap.Wait() })
	shown := make(chan string, 64)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				shown <- line
			}
			if err != nil {
				close(shown)
				return
			}
		}
	}()
	waitLine := func(want string) string {
		t.Helper()
		var all string
		for {
			select {
			case l, ok := <-shown:
				if !ok {
					t.Fatalf("eukhe approvals ended before %q:\n%s", want, all)
				}
				all += l
				if strings.Contains(l, want) {
					return all
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("no %q from eukhe approvals:\n%s", want, all)
			}
		}
	}
	waitLine("Attached to testeditor")
	ag := startMCP(t, env, e.root)
	done := make(chan string)
	go func() { text, _ := ag.call("bash", map[string]any{"script": "echo hi > t.txt"}); done <- text }()
	out := waitLine("echo hi > t.txt")
	if !strings.Contains(out, "Run step 1 (read+write)?") {
		t.Errorf("the question as shown:\n%s", out)
	}
	// The server's deadline (approval.timeoutSeconds, 120 s by default).
	if due := waitLine("Unanswered by"); !regexp.MustCompile(`Unanswered by \d\d:\d\d:\d\d, it is denied\.\n$`).MatchString(due) {
		t.Errorf("the deadline as shown: %q", due)
	}
	stdin.Write([]byte("y\n"))
	if text := <-done; strings.Contains(text, "did not run") {
		t.Fatalf("approved in the terminal: %s", text)
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "t.txt")); string(b) != "hi\n" {
		t.Fatalf("t.txt: %q", b)
	}
}
