package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate/settings"
)

// world is one session on a temp workspace, served over in-memory
// transports to a go-sdk client.
type world struct {
	t    *testing.T
	dir  string
	host *Headless
	sess *Session
	cs   *mcp.ClientSession

	mu  sync.Mutex
	set settings.Settings

	issues []Issue
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, dir: t.TempDir(), set: settings.Defaults()}
	w.host = &Headless{RootDir: w.dir, Disk: docs.NewDisk(), Current: w.settings,
		OnIssue: func(is Issue) { w.mu.Lock(); w.issues = append(w.issues, is); w.mu.Unlock() }}
	s, err := Open(Options{Host: w.host, LogPath: filepath.Join(w.dir, ".state", "log.jsonl"), CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w.sess = s
	w.cs = connect(t, s)
	t.Cleanup(s.Close)
	return w
}

// connect serves s over in-memory transports and returns the client side.
func connect(t testing.TB, s *Session) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func (w *world) settings() settings.Settings {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.set
}

// servers sets mcp.servers.
func (w *world) servers(m map[string]settings.MCPServer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.set.MCPServers = m
}

func (w *world) put(name, text string) {
	w.t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) get(name string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// call runs a tool over MCP; args is marshalled as is.
func (w *world) call(name string, args any) (string, bool) {
	w.t.Helper()
	res, err := w.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		w.t.Fatalf("calling %s: %v", name, err)
	}
	return contentText(res), res.IsError
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		} else {
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// tagOf is the TAG of a read's header [path#TAG].
func tagOf(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "#")
	j := strings.Index(text, "]")
	if i < 0 || j < i {
		t.Fatalf("no [path#TAG] header in %q", text)
	}
	return text[i+1 : j]
}

// rawClient speaks JSON-RPC lines to a session's LineTransport, so a test
// sees the wire as sent (member order included).
type rawClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan []byte
}

func rawConnect(t *testing.T, s *Session) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := s.Server().Connect(context.Background(), &LineTransport{In: inR, Out: outW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &rawClient{t: t, in: inW, lines: make(chan []byte, 64)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(r.lines)
	}()
	t.Cleanup(func() { inW.Close(); ss.Close(); outW.Close() })
	return r
}

func (r *rawClient) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// recv is the next line the server wrote.
func (r *rawClient) recv() Object {
	r.t.Helper()
	select {
	case b, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the server closed its output")
		}
		v, err := ParseJSON(b)
		if err != nil {
			r.t.Fatalf("the server wrote %q: %v", b, err)
		}
		return v.(Object)
	case <-time.After(10 * time.Second):
		r.t.Fatal("no answer from the server")
	}
	return nil
}

// rpc sends a call and returns its response.
func (r *rawClient) rpc(id int, method string, params string) Object {
	r.t.Helper()
	if params == "" {
		params = "{}"
	}
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	for {
		m := r.recv()
		if got, ok := m.Get("id"); ok && fmt.Sprint(got) == fmt.Sprint(id) {
			return m
		}
	}
}

// initialize opens the MCP session the classic way.
func (r *rawClient) initialize() Object {
	r.t.Helper()
	res := r.rpc(0, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// path walks nested objects by keys.
func path(v any, keys ...string) any {
	for _, k := range keys {
		o, ok := v.(Object)
		if !ok {
			return nil
		}
		v, _ = o.Get(k)
	}
	return v
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
