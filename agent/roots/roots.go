//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them, and its clients are served the current directory

package roots

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/agent"
)

// The workspace from the client (issue: a newcomer's first hour). Clients
// such as Claude Desktop start servers in / or the home, where every
// search is refused as touching secrets. Without --root, eukhe mcp asks a
// client that offers roots (its initialize names the roots capability)
// for them before the session exists, and serves the first that is a
// directory here: the handshake is answered by a server with eukhe's own
// identity and no tool (agent.NewMCPServer), which asks roots/list once
// the client is initialized; then the session's server is given the same
// initialize and initialized, its own answer to initialize is dropped,
// and what the client sent meanwhile follows. A client without roots, or
// one that does not answer within rootsWait, gets the current directory,
// and the first diagnostic line says which root is served and why; so
// does a client of MCP 2026-07-28, whose first message is server/discover
// (that version deprecates roots, and its server sends no request). Roots
// the client changes later are not followed (a session has one root for
// its life: its journal, settings and map are the root's): the change is
// said on standard error, and to the agent by the session, in its next
// tool result (agent's rootsnote.go: the client's roots now, the root
// still served, how to serve the new one); a new session serves the new
// roots.

// rootsWait is how long the client has to answer roots/list.
var rootsWait = 10 * time.Second

// Choice is the root eukhe mcp serves, why, and the streams the
// session then reads and writes.
type Choice struct {
	Root, Why string
	In        io.Reader
	Out       io.Writer
}

// rpcHead is what the handshake reads of a message.
type rpcHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Capabilities struct {
			Roots json.RawMessage `json:"roots"`
		} `json:"capabilities"`
	} `json:"params"`
}

// Choose reads the client's first message: an initialize offering
// roots starts the handshake; anything else is given back unread, and the
// current directory cwd is served.
func Choose(ctx context.Context, stdin io.Reader, stdout io.Writer, cwd string, stderr io.Writer) Choice {
	br := bufio.NewReaderSize(stdin, 64<<10)
	first, err := br.ReadBytes('\n')
	plain := Choice{Root: cwd, Why: "the current directory: the client offers no roots", In: io.MultiReader(bytes.NewReader(first), br), Out: stdout}
	if err != nil {
		// the end of input (a terminal's Ctrl-D is read once): no more
		plain.In = bytes.NewReader(first)
	}
	var head rpcHead
	switch {
	case err != nil || json.Unmarshal(first, &head) != nil:
		plain.Why = "the current directory"
		return plain
	case head.Method == "server/discover":
		// MCP 2026-07-28 has no handshake to ask roots in (SEP-2577
		// deprecates them; a server sends no request of its own)
		plain.Why = "the current directory: the client's MCP version cannot be asked for roots; pass --root to serve another"
		return plain
	case head.Method != "initialize":
		plain.Why = "the current directory"
		return plain
	}
	if len(head.Params.Capabilities.Roots) == 0 || string(head.Params.Capabilities.Roots) == "null" {
		return plain
	}
	return handshake(ctx, first, head.ID, br, stdout, cwd, stderr)
}

// handshake answers the client's initialize, asks its roots, and hands
// the connection over (see above).
func handshake(ctx context.Context, initialize []byte, id json.RawMessage, br *bufio.Reader, stdout io.Writer, cwd string, stderr io.Writer) Choice {
	lines := make(chan []byte, 64)
	go func() { // the client's lines, for the handshake and then the session
		defer close(lines)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	toBare, bareIn := io.Pipe()
	bareOut, fromBare := io.Pipe()
	rootsCh := make(chan *mcp.ListRootsResult, 1)
	errCh := make(chan error, 1)
	hctx, cancel := context.WithTimeout(ctx, rootsWait)
	defer cancel()
	srv := agent.NewMCPServer(func(_ context.Context, req *mcp.InitializedRequest) {
		go func() {
			res, err := req.Session.ListRoots(hctx, nil)
			if err != nil {
				errCh <- err
				return
			}
			rootsCh <- res
		}()
	})
	copied := make(chan struct{})
	go func() { // the handshake's answers to the client
		defer close(copied)
		r := bufio.NewReader(bareOut)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				stdout.Write(line)
			}
			if err != nil {
				return
			}
		}
	}()
	ss, err := srv.Connect(hctx, &mcp.IOTransport{Reader: toBare, Writer: fromBare}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe mcp: the handshake for the client's roots failed (%v)\n", err)
	}
	bareIn.Write(initialize)
	w := waitRoots(hctx, lines, rootsCh, errCh, bareIn)
	w.replay = append([][]byte{initialize}, w.replay...)
	roots, why, replay, held := w.roots, w.why, w.replay, w.held
	if ss != nil {
		ss.Close()
	}
	bareIn.Close()
	fromBare.Close()
	<-copied
	choice := Choice{Root: cwd, Why: "the current directory: " + why}
	if roots != nil {
		choice.Root, choice.Why = pickRoot(roots.Roots, cwd)
	}
	in, pw := io.Pipe()
	go func() { // the session's input: the handshake again, what waited, the rest
		for _, l := range append(replay, held...) {
			if _, err := pw.Write(l); err != nil {
				return
			}
		}
		for line := range lines {
			if bytes.Contains(line, []byte(`"notifications/roots/list_changed"`)) {
				fmt.Fprintf(stderr, "eukhe mcp: the client's roots changed; this session stays on %s (a session keeps its root): start a new one to serve the new roots\n", choice.Root)
			}
			if _, err := pw.Write(line); err != nil {
				return
			}
		}
		pw.Close()
	}()
	choice.In, choice.Out = in, &dropAnswer{w: stdout, id: id}
	return choice
}

// route is where a client's line goes while the handshake waits for its
// roots (pure): until the client is initialized, to the handshake (its
// notifications/initialized also kept to replay to the session); then
// only answers (to roots/list) go there, and the rest waits for the
// session.
type route int

const (
	toHandshake route = iota
	toHandshakeAndReplay
	toSession
)

func routeLine(initialized bool, h rpcHead) route {
	switch {
	case !initialized && h.Method == "notifications/initialized":
		return toHandshakeAndReplay
	case !initialized:
		return toHandshake
	case h.Method == "" && len(h.ID) > 0:
		return toHandshake
	}
	return toSession
}

// waited is what the handshake's wait ends with: the client's roots, or
// why there are none; the lines to replay to the session after its
// initialize, and the lines held for it.
type waited struct {
	roots        *mcp.ListRootsResult
	why          string
	replay, held [][]byte
}

// waitRoots routes the client's lines (routeLine) until its roots come,
// its roots/list fails, it closes or ctx ends.
func waitRoots(ctx context.Context, lines <-chan []byte, rootsCh <-chan *mcp.ListRootsResult, errCh <-chan error, bare io.Writer) waited {
	var w waited
	initialized := false
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				w.why = "the client closed before it answered roots/list"
				return w
			}
			var h rpcHead
			_ = json.Unmarshal(line, &h)
			switch routeLine(initialized, h) {
			case toHandshakeAndReplay:
				initialized = true
				w.replay = append(w.replay, line)
				bare.Write(line)
			case toHandshake:
				bare.Write(line)
			default:
				w.held = append(w.held, line)
			}
		case w.roots = <-rootsCh:
			return w
		case err := <-errCh:
			w.why = fmt.Sprintf("the client's roots/list failed (%v)", err)
			return w
		case <-ctx.Done():
			w.why = fmt.Sprintf("the client did not answer roots/list within %s", rootsWait)
			return w
		}
	}
}

// pickRoot is the first of the client's roots that is a directory here.
func pickRoot(roots []*mcp.Root, cwd string) (string, string) {
	var skipped []string
	for i, r := range roots {
		p, ok := agent.FileURIPath(r.URI)
		if !ok {
			skipped = append(skipped, r.URI+" (not a file: URI of a path here)")
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			skipped = append(skipped, r.URI+" (no such directory here)")
			continue
		}
		why := "the client's first root"
		if i > 0 || len(skipped) > 0 {
			why = fmt.Sprintf("the client's root %d; passed over: %v", i+1, skipped)
		}
		if n := len(roots) - i - 1; n > 0 {
			why += fmt.Sprintf("; %d more not served (a session serves one root: start one per root, or pass --root)", n)
		}
		return p, why
	}
	if len(roots) == 0 {
		return cwd, "the current directory: the client named no roots"
	}
	return cwd, fmt.Sprintf("the current directory: no root of the client's is a directory here: %v", skipped)
}

// dropAnswer writes the session's output but for its answer to the
// initialize the handshake answered already (the first response with
// that id), line by line.
type dropAnswer struct {
	w       io.Writer
	id      json.RawMessage
	mu      sync.Mutex
	dropped bool
	partial []byte
}

func (d *dropAnswer) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dropped {
		return d.w.Write(p)
	}
	d.partial = append(d.partial, p...)
	for {
		i := bytes.IndexByte(d.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := d.partial[:i+1]
		var h rpcHead
		if !d.dropped && json.Unmarshal(line, &h) == nil && h.Method == "" && bytes.Equal(h.ID, d.id) {
			d.dropped = true
		} else if _, err := d.w.Write(line); err != nil {
			return len(p), err
		}
		d.partial = d.partial[i+1:]
		if d.dropped {
			if len(d.partial) > 0 {
				_, err := d.w.Write(d.partial)
				d.partial = nil
				return len(p), err
			}
			return len(p), nil
		}
	}
}
