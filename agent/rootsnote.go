//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them

package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A session keeps its root for its life (its journal, settings and map
// are the root's: package roots). When the client says its roots changed
// (its list_changed notification of roots), the session asks them (roots/list)
// and the next tool result says, once, in one line, what they are now,
// which root this session still serves and how to serve the new one
// (rootsChanged, withRootsNote; cmd/eukhe mcp_roots_test.go). A change
// that leaves the served root the client's first says nothing.

// rootsListWait bounds the session's roots/list after a change;
// rootsNoteWait how long a tool result waits for its answer (then it says
// the change without the new roots).
const (
	rootsListWait = 10 * time.Second
	rootsNoteWait = 2 * time.Second
)

// rootsChange is one change of the client's roots: its note, once its
// roots/list is answered (done).
type rootsChange struct {
	done chan struct{}
	note string
}

// rootsChanged is the session server's RootsListChangedHandler: it asks
// the client's roots apart from the connection's reading (a request made
// in a notification's handler would wait on its own answer) and keeps
// the change for the next tool result.
func (s *Session) rootsChanged(ctx context.Context, req *mcp.RootsListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	ss, c := req.Session, &rootsChange{done: make(chan struct{})}
	s.rootsChange.Store(c)
	go func() {
		defer close(c.done)
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rootsListWait)
		defer cancel()
		res, err := ss.ListRoots(lctx, nil)
		if err != nil {
			c.note = s.rootsUnlisted(fmt.Sprintf("its roots/list failed: %v", err))
			return
		}
		c.note = rootsNote(res.Roots, s.host.Root())
	}()
}

// rootsUnlisted is the note of a change whose roots are not known.
func (s *Session) rootsUnlisted(why string) string {
	return fmt.Sprintf("[notice] the client's roots changed (%s); this session still serves %s (a session keeps its root): to serve another root, restart eukhe's MCP server in your client", why, s.host.Root())
}

// rootsNote is the one line for roots that changed to roots while the
// session serves served; "" when the client's first directory root is
// the served one.
func rootsNote(roots []*mcp.Root, served string) string {
	var names []string
	first := ""
	for _, r := range roots {
		name := r.URI
		if p, ok := FileURIPath(r.URI); ok {
			name = p
			if first == "" {
				first = name
			}
		}
		names = append(names, name)
	}
	if first == filepath.Clean(served) {
		return ""
	}
	if len(names) == 0 {
		return fmt.Sprintf("[notice] the client's roots changed to none; this session still serves %s (a session keeps its root)", served)
	}
	how := "restart eukhe's MCP server in your client (a new session serves the client's first root)"
	if first != "" {
		how = fmt.Sprintf("to serve %s, restart eukhe's MCP server in your client (a new session serves the client's first root; or start it with --root %s)", first, first)
	}
	return fmt.Sprintf("[notice] the client's roots changed to %s; this session still serves %s (a session keeps its root): %s", strings.Join(names, ", "), served, how)
}

// withRootsNote adds the note of a change of the client's roots to a
// reply, once.
func (s *Session) withRootsNote(r Result) Result {
	c := s.rootsChange.Swap(nil)
	if c == nil {
		return r
	}
	note := ""
	select {
	case <-c.done:
		note = c.note
	case <-time.After(rootsNoteWait):
		note = s.rootsUnlisted(fmt.Sprintf("it did not answer roots/list within %s", rootsNoteWait))
	}
	if note != "" {
		r.appendText("\n" + note)
	}
	return r
}
