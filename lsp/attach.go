package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
	"github.com/eukhe/eukhe/protocol"
)

// The discovery socket (DESIGN.md §7, protocol/README.md "The socket"):
// after initialize the server listens in the per-user directory; each
// connection starts with one hello line, then is an agent's MCP session
// (attach) or a terminal that answers questions (approvals).

// maxHello bounds the hello line.
const maxHello = 64 << 10

// start runs once the editor said initialized: the settings watch over the
// editor's roots, and the socket when Options.Discover is set.
func (a *attachments) start() {
	s := a.s
	roots := s.roots()
	paths := settings.Locate(a.env, roots)
	w, err := settings.Watch(paths, s.settingsEvent)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		if w != nil {
			w.Close()
		}
		return
	}
	a.paths = paths
	a.policy, a.git = paths.Policy(a.env)
	if err != nil {
		s.logf("%v", err)
	} else {
		a.watch = w
	}
	if !s.opts.Discover {
		return
	}
	place := discovery.Place{Dir: s.opts.SocketDir, KeyDir: discovery.KeyDir(a.env)}
	if place.Dir == "" {
		if place, err = discovery.Open(a.env); err != nil {
			s.logf("agents cannot attach: %v", err)
			return
		}
	}
	l, err := place.Listen(roots, s.capabilities().name)
	if err != nil {
		s.logf("agents cannot attach: %v", err)
		return
	}
	a.listener = l
	go a.accept(l)
}

// stop removes the socket, ends pending questions and the settings watch;
// attached connections end with the server.
func (a *attachments) stop() {
	a.mu.Lock()
	if a.stopped {
		a.mu.Unlock()
		return
	}
	a.stopped = true
	l, w := a.listener, a.watch
	a.mu.Unlock()
	if l != nil {
		l.Close()
	}
	a.broker.editorGone()
	if w != nil {
		w.Close()
	}
}

func (a *attachments) accept(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go a.s.ServeConn(a.s.life(), c)
	}
}

// ServeConn serves one connection of the socket: a hello line, then an
// agent's MCP session or an approvals terminal, until the peer leaves or
// ctx ends.
func (s *Server) ServeConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 4096)
	line, err := readLine(br, maxHello)
	if err != nil {
		return
	}
	var h protocol.Hello
	if err := json.Unmarshal(line, &h); err != nil {
		answerHello(c, protocol.HelloAnswer{Error: "eukhe: the first line must be a hello object: " + err.Error()})
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { <-ctx.Done(); c.Close() }()
	switch h.Eukhe {
	case protocol.HelloAttach:
		hst, err := s.att.hostFor(h.Root)
		if err != nil {
			answerHello(c, protocol.HelloAnswer{Error: "eukhe: " + err.Error()})
			return
		}
		o := s.att.sessionOptions(hst, h.Parent)
		s.logf("session %s attached on %s", o.ID, hst.root)
		// The answer to the hello: the session is served from the next line.
		if err := answerHello(c, protocol.HelloAnswer{Eukhe: protocol.HelloAttached, Session: o.ID}); err != nil {
			return
		}
		in := struct {
			io.Reader
			io.Closer
		}{br, c}
		if err := agent.Serve(ctx, &agent.LineTransport{In: in, Out: c}, o); err != nil && err != io.EOF {
			s.logf("session %s: %v", o.ID, err)
		}
	case protocol.HelloApprovals:
		s.att.broker.serveTerminal(ctx, c, br, h.Gateway)
	default:
		answerHello(c, protocol.HelloAnswer{Error: fmt.Sprintf("eukhe: unknown hello %q: want attach or approvals", h.Eukhe)})
	}
}

// readLine reads one line without its newline, at most max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("a line over %d bytes", max)
		}
		if err == nil {
			return line[:len(line)-1], nil
		}
		if err != bufio.ErrBufferFull {
			return nil, err
		}
	}
}
