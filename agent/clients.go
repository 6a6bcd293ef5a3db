package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/gate/settings"
)

// DefaultCallTimeout bounds one call to a configured MCP server, starting
// it included.
const DefaultCallTimeout = 60 * time.Second

// Clients are the session's connections to the MCP servers of the user's
// mcp.servers (stdio commands and streamable-HTTP URLs), made on first use.
// A server that crashes, hangs past the timeout or breaks its connection
// gives that call an error; it is stopped and started again on the next
// call, and the session stays up. Clients is the urls.ResourceSource of
// mcp:// reads.
type Clients struct {
	// Servers are the configured servers in force now.
	Servers func() map[string]settings.MCPServer
	// Timeout bounds each call; 0 is DefaultCallTimeout.
	Timeout time.Duration
	// Dir is the directory stdio servers start in ("" is this process's).
	Dir string
	// Getenv reads the environment for bearerTokenEnvVar; nil is os.Getenv.
	Getenv func(string) string

	mu     sync.Mutex
	live   map[string]*peer
	closed bool
}

// peer is one configured server and its connection, if any.
type peer struct {
	name string
	cfg  settings.MCPServer

	mu     sync.Mutex // held while connecting
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *tail
	// stderrDone closes when the server's stderr reached its end (the
	// server and every process holding it exited), so a crash's message
	// holds what the server wrote before it died.
	stderrDone chan struct{}
}

// drained waits, at most a second, until the stderr of a server that went
// away is read to its end. p.mu is held.
func (p *peer) drained() {
	if p.stderrDone == nil {
		return
	}
	select {
	case <-p.stderrDone:
	case <-time.After(time.Second):
	}
}

var _ urls.ResourceSource = (*Clients)(nil)

func (c *Clients) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultCallTimeout
}

func (c *Clients) servers() map[string]settings.MCPServer {
	if c.Servers == nil {
		return nil
	}
	return c.Servers()
}

// Names are the configured servers, sorted.
func (c *Clients) Names() []string {
	var ns []string
	for n := range c.servers() {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// HasServer tells whether name is one of the configured servers.
func (c *Clients) HasServer(name string) bool {
	_, ok := c.servers()[name]
	return ok
}

// ListTools lists a server's tools, every page.
func (c *Clients) ListTools(ctx context.Context, server string) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	err := c.do(ctx, server, func(ctx context.Context, cs *mcp.ClientSession) error {
		params := &mcp.ListToolsParams{}
		for {
			res, err := cs.ListTools(ctx, params)
			if err != nil {
				return err
			}
			out = append(out, res.Tools...)
			if res.NextCursor == "" {
				return nil
			}
			params.Cursor = res.NextCursor
		}
	})
	return out, err
}

// CallTool runs one tool of a server with its arguments as given (a JSON
// object; nil is empty).
func (c *Clients) CallTool(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var res *mcp.CallToolResult
	err := c.do(ctx, server, func(ctx context.Context, cs *mcp.ClientSession) error {
		var err error
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		return err
	})
	return res, err
}

// ListResources lists a server's resources, every page.
func (c *Clients) ListResources(ctx context.Context, server string) ([]*mcp.Resource, error) {
	var out []*mcp.Resource
	err := c.do(ctx, server, func(ctx context.Context, cs *mcp.ClientSession) error {
		params := &mcp.ListResourcesParams{}
		for {
			res, err := cs.ListResources(ctx, params)
			if err != nil {
				return err
			}
			out = append(out, res.Resources...)
			if res.NextCursor == "" {
				return nil
			}
			params.Cursor = res.NextCursor
		}
	})
	return out, err
}

// ReadResource reads one resource of a server.
func (c *Clients) ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := c.do(ctx, server, func(ctx context.Context, cs *mcp.ClientSession) error {
		var err error
		res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		return err
	})
	return res, err
}

// Close stops every server; later calls fail.
func (c *Clients) Close() {
	c.mu.Lock()
	live := c.live
	c.live, c.closed = nil, true
	c.mu.Unlock()
	for _, p := range live {
		p.mu.Lock()
		p.stop()
		p.mu.Unlock()
	}
}

// do runs op on server's connection within the timeout. An error that is
// the server's answer (a JSON-RPC error) leaves the connection up; any
// other (a crash, a closed pipe, the timeout) stops the server so the next
// call starts it again.
func (c *Clients) do(ctx context.Context, server string, op func(context.Context, *mcp.ClientSession) error) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	p, err := c.peer(server)
	if err != nil {
		return err
	}
	p.mu.Lock()
	if p.cs == nil {
		if err := p.connect(ctx, c); err != nil {
			p.mu.Unlock()
			return err
		}
	}
	cs := p.cs
	p.mu.Unlock()
	err = op(ctx, cs)
	if err == nil {
		return nil
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && ctx.Err() == nil {
		return fmt.Errorf("MCP server %q answered: %s", server, wire.Message)
	}
	p.mu.Lock()
	stderr := ""
	if p.cs == cs {
		if closed(err) {
			p.drained()
		}
		stderr = p.stderr.String()
		p.stop()
	}
	p.mu.Unlock()
	why := err.Error()
	if ctx.Err() == context.DeadlineExceeded {
		why = fmt.Sprintf("no answer within %v", c.timeout())
	} else if closed(err) {
		why = "the connection closed (the server may have crashed)"
	}
	if stderr != "" {
		why += "; its last output on stderr: " + stderr
	}
	return fmt.Errorf("MCP server %q: %s. It was stopped and starts again on the next call", server, why)
}

// closed tells whether a call failed because the server's connection
// ended: the SDK says so as ErrConnectionClosed, or, when the server died
// while the call was being read, as the pipe's EOF.
func closed(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// peer is server's entry, made anew when its configuration changed.
func (c *Clients) peer(server string) (*peer, error) {
	cfg, ok := c.servers()[server]
	if !ok {
		names := c.Names()
		have := "none are configured"
		if len(names) > 0 {
			have = "configured: " + strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("no MCP server %q in mcp.servers of the user settings (%s)", server, have)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("the session is closing; MCP server %q is not started", server)
	}
	if c.live == nil {
		c.live = map[string]*peer{}
	}
	p := c.live[server]
	if p != nil && reflect.DeepEqual(p.cfg, cfg) {
		return p, nil
	}
	if p != nil {
		old := p
		go func() { old.mu.Lock(); old.stop(); old.mu.Unlock() }()
	}
	p = &peer{name: server, cfg: cfg}
	c.live[server] = p
	return p, nil
}

// connect starts the server (or reaches its URL) and initializes the
// session. p.mu is held.
func (p *peer) connect(ctx context.Context, c *Clients) error {
	var t mcp.Transport
	switch typ := strings.ToLower(p.cfg.Type); {
	case p.cfg.Command != "" && (typ == "" || typ == "stdio"):
		cmd := exec.Command(p.cfg.Command, p.cfg.Args...)
		cmd.Dir = c.Dir
		cmd.Env = os.Environ()
		for k, v := range p.cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		ownGroup(cmd)
		p.stderr = &tail{}
		r, w, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("MCP server %q: a pipe for its stderr: %v", p.name, err)
		}
		defer w.Close() // the server holds its own copy once started
		cmd.Stderr = w
		done := make(chan struct{})
		go func(tl *tail) {
			io.Copy(tl, r)
			r.Close()
			close(done)
		}(p.stderr)
		p.stderrDone = done
		p.cmd = cmd
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}
	case p.cfg.URL != "" && (typ == "" || typ == "http" || typ == "streamable-http" || typ == "streamablehttp"):
		t = &mcp.StreamableClientTransport{Endpoint: p.cfg.URL, HTTPClient: c.httpClient(p.cfg),
			MaxRetries: -1, DisableStandaloneSSE: true}
	case p.cfg.URL != "" && typ == "sse":
		t = &mcp.SSEClientTransport{Endpoint: p.cfg.URL, HTTPClient: c.httpClient(p.cfg)}
	default:
		return fmt.Errorf("MCP server %q in mcp.servers has neither a command (stdio) nor a url (http); give one", p.name)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "eukhe", Version: Version}, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		stderr := ""
		if p.stderr != nil {
			p.drained()
			stderr = p.stderr.String()
		}
		p.stop()
		what := p.cfg.URL
		if p.cfg.Command != "" {
			what = strings.Join(append([]string{p.cfg.Command}, p.cfg.Args...), " ")
		}
		msg := fmt.Sprintf("MCP server %q (%s) did not start: %v", p.name, what, err)
		if ctx.Err() == context.DeadlineExceeded {
			msg = fmt.Sprintf("MCP server %q (%s) did not answer its initialization within %v", p.name, what, c.timeout())
		}
		if stderr != "" {
			msg += "; its last output on stderr: " + stderr
		}
		return errors.New(msg)
	}
	p.cs = cs
	return nil
}

// stop ends the connection: a stdio server's whole process group is
// killed first, so a hung server (or its children) cannot hold the call.
// p.mu is held.
func (p *peer) stop() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = killGroup(p.cmd)
	}
	if p.cs != nil {
		cs := p.cs
		go cs.Close() // reaps the process
	} else if p.cmd != nil && p.cmd.Process != nil {
		go p.cmd.Wait()
	}
	p.cs, p.cmd = nil, nil
}

func (c *Clients) httpClient(cfg settings.MCPServer) *http.Client {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	h := http.Header{}
	for k, v := range cfg.Headers {
		h.Set(k, v)
	}
	if cfg.BearerTokenEnvVar != "" {
		if tok := getenv(cfg.BearerTokenEnvVar); tok != "" {
			h.Set("Authorization", "Bearer "+tok)
		}
	}
	return &http.Client{Transport: headerTransport{h: h, next: http.DefaultTransport}}
}

// headerTransport adds the configured headers to each request.
type headerTransport struct {
	h    http.Header
	next http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, vs := range t.h {
			r.Header[k] = vs
		}
	}
	return t.next.RoundTrip(r)
}

// tail keeps the last bytes a server wrote to stderr, for the error a call
// gets when the server fails.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailKeep = 2 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailKeep {
		t.buf = t.buf[len(t.buf)-tailKeep:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
