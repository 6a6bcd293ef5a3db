package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
)

// Options configure a Server.
type Options struct {
	// Root is the workspace root when the editor names none at initialize
	// (default: the working directory).
	Root string
	// LandingWait bounds how long a commit waits for the editor's didChange
	// that shows an edit landed while the document is quiet (default 2s).
	LandingWait time.Duration
	// TypingWait bounds the wait while the document keeps changing without
	// showing the edit: each change gives LandingWait more, up to this in
	// all (default 10s: Eglot tells its changes only after 0.5 s without
	// typing, Neovim after its debounce). Past it the edit is "not
	// confirmed yet", and followed until it shows.
	TypingWait time.Duration
	// RefusedWait bounds how long a refused edit's document is watched
	// for a change the editor tells after its answer (default
	// refusedWait, at most LandingWait).
	RefusedWait time.Duration
	// CallTimeout bounds a request to the editor: an applyEdit or a save
	// (default 60s; VS Code may hold an applyEdit while it shows a preview).
	CallTimeout time.Duration
	// Log receives diagnostics; nil discards them.
	Log io.Writer
	// Trace, when set, receives every message in and out, timed, a line
	// each: what an editor and the server said, for a report of a problem
	// with an editor.
	Trace io.Writer
	// Env is the environment the settings, the path policy and the
	// discovery directory are found in ("NAME" → value); nil is the
	// process's.
	Env map[string]string
	// Discover makes the server listen on a discovery socket after
	// initialize, so agents (`eukhe mcp`) and `eukhe approvals` attach
	// (DESIGN.md §7). SocketDir is its directory; "" is discovery.Dir's. Its
	// entry is signed with the key in discovery.KeyDir(Env).
	Discover  bool
	SocketDir string
	// ProgressEvery is how often a long grep reports $/progress (0:
	// docs.DefaultProgressEvery); tests make it short.
	ProgressEvery time.Duration
}

// Server is eukhe's LSP server for one editor connection: the overlay of
// the editor's open documents, and the editor Store over it.
type Server struct {
	opts  Options
	disk  *docs.Disk
	ov    *overlay
	store *store

	mu       sync.Mutex
	caps     clientCaps
	root     string
	conn     jsonrpc2.Conn
	client   lsproto.Client
	ctx      context.Context // the connection's life
	ready    bool            // initialize answered
	shutdown bool            // shutdown received
	exit     chan struct{}   // closed by the exit notification

	// closeWait bounds how long Serve waits for the connection to close
	// when the stream ended or ctx did. A field, not a package variable, so
	// a test that makes it long races no other test's Serve.
	closeWait time.Duration

	commitMu sync.Mutex // one commit at a time reaches the editor
	review   *reviewBook
	sessions *toolSessions
	folders  []string         // every workspace folder the editor named
	att      *attachments     // attached agents, approvals, settings, host tools
	problems settingsProblems // the settings files' problems, for eukhe/settingsStatus
}

// New makes a Server; Serve runs it on a connection.
func New(opts Options) *Server {
	if opts.LandingWait <= 0 {
		opts.LandingWait = 2 * time.Second
	}
	if opts.TypingWait <= 0 {
		opts.TypingWait = max(opts.LandingWait, 10*time.Second)
	}
	opts.TypingWait = max(opts.TypingWait, opts.LandingWait)
	if opts.RefusedWait <= 0 {
		opts.RefusedWait = refusedWait
	}
	opts.RefusedWait = min(opts.RefusedWait, opts.LandingWait)
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.Root == "" {
		opts.Root, _ = os.Getwd()
	}
	s := &Server{opts: opts, disk: docs.NewDisk(), ov: newOverlay(), root: opts.Root,
		exit: make(chan struct{}), ctx: context.Background(), closeWait: 3 * time.Second}
	s.disk.Fault = agent.CrashPause() // nil but in crash tests
	s.store = &store{s: s}
	s.review = newReviewBook()
	s.sessions = newToolSessions()
	if opts.Env == nil {
		opts.Env = processEnv()
		s.opts.Env = opts.Env
	}
	s.att = newAttachments(s, opts.Env)
	return s
}

// Store is the editor Store: open documents from the editor, other files
// from the disk; edits to open documents go through the editor. Without an
// editor attached every file is closed and it is the disk Store.
func (s *Server) Store() docs.Store { return s.store }

// Root is the workspace root: the editor's first workspace folder, else
// Options.Root.
func (s *Server) Root() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root
}

// roots are the workspace roots: every folder the editor named, else Root.
func (s *Server) roots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.folders) > 0 {
		return append([]string(nil), s.folders...)
	}
	return []string{s.root}
}

// life is the connection's life.
func (s *Server) life() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

// ErrNoShutdown is Serve's error when the editor sent exit without
// shutdown, or went away without either (LSP: exit code 1).
var ErrNoShutdown = errors.New("the editor ended the session without a shutdown request")

// Serve speaks LSP on rwc until the editor sends exit, the stream ends, or
// ctx ends. It returns nil after a clean shutdown and exit.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	// No write to the editor blocks without a deadline (writer.go): a
	// little past the call timeout, so that an applyEdit's own deadline
	// ends its wait first and the connection stays whole.
	bw := newBoundedWriter(rwc, s.opts.CallTimeout+5*time.Second)
	stream := jsonrpc2.NewStream(bw)
	if s.opts.Trace != nil {
		stream = &traceStream{Stream: stream, w: s.opts.Trace}
	}
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.conn, s.client, s.ctx = conn, lsproto.ClientDispatcher(conn), ctx
	s.mu.Unlock()
	conn.Go(ctx, s.handler(cancelTools(lsproto.ServerHandler(&rpc{s: s}, nil))))
	select {
	case <-s.exit:
	case <-conn.Done():
	case <-ctx.Done():
	}
	cancel() // ends every wait on the editor
	s.att.stop()
	s.sessions.closeAll()
	s.ov.clear()
	// Close drains the handlers and waits for the reader. After exit
	// nothing is left to say and the editor may kill a process that
	// lingers (Eglot: after 0.1 s), so Serve returns at once, leaving the
	// close to the process's end: the reader may be blocked on standard
	// input, which Close does not interrupt. Otherwise a reader blocked on
	// a stream that ignores Close must not hold the end for long.
	closed := make(chan struct{})
	go func() {
		_ = rwc.Close()
		_ = conn.Close()
		close(closed)
	}()
	select {
	case <-s.exit:
	case <-closed:
	case <-time.After(s.closeWait):
	}
	s.mu.Lock()
	clean := s.shutdown
	s.mu.Unlock()
	select {
	case <-s.exit:
		if clean {
			return nil
		}
	default:
		if err := conn.Err(); err != nil {
			return fmt.Errorf("the connection to the editor failed: %w", err)
		}
	}
	return ErrNoShutdown
}

// handler runs every message in the order the editor sent it, inline on
// the read loop: text sync must apply didChange in order, and it is fast.
// A method that calls back into the editor releases the loop itself
// (jsonrpc2.Async) before it does. An error of a notification is logged,
// never allowed to end the connection. Only eukhe/tool requests can be
// cancelled ($/cancelRequest: cancelTools, cancel.go, whose contexts
// derive from the connection, not the pooled request); a commit already
// under way is never abandoned halfway.
func (s *Server) handler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		call := req.IsCall()
		if req.Method() == lsproto.MethodTextDocumentDidChange {
			if u, why := badChange(json.RawMessage(req.Params())); why != "" {
				s.ov.lose(u, why) // refused: the document's copy is unknown from here
				s.logf("%s: %s", u, why)
				return nil, nil
			}
		}
		res, err := next(ctx, req)
		if err != nil && !call {
			s.logf("%s: %v", req.Method(), err)
			return nil, nil
		}
		return res, err
	}
}

// logf logs a diagnostic line: to the editor as window/logMessage of type
// Log once it is connected (an editor logs a server's standard error as
// errors, Neovim's :LspLog among them), else to Options.Log.
func (s *Server) logf(format string, a ...any) {
	if client, _, life, ok := s.editor(); ok {
		if client.LogMessage(life, &lsproto.LogMessageParams{Type: lsproto.MessageTypeLog,
			Message: fmt.Sprintf("eukhe lsp: "+format, a...)}) == nil {
			return
		}
	}
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "eukhe lsp: "+format+"\n", a...)
	}
}

// editor is the connection's client side and life, or ok false when no
// editor is attached.
func (s *Server) editor() (lsproto.Client, jsonrpc2.Conn, context.Context, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client, s.conn, s.ctx, s.conn != nil && s.ready && s.ctx.Err() == nil
}

func (s *Server) capabilities() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// rpc is the LSP method set; each method is a few lines in the file of its
// group (lifecycle.go, textsync.go, custom.go).
type rpc struct {
	lsproto.UnimplementedServer
	s *Server
}

// codec is the payload codec of go.lsp.dev/protocol (its union types need
// it), installed on our own connection.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return lsproto.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return lsproto.Unmarshal(data, v)
}
