//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them

package roots

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"
)

// pickRoot passes over what is not a directory here and says so.
func TestPickRoot(t *testing.T) {
	dir := t.TempDir()
	root, why := pickRoot([]*mcp.Root{{URI: "https://x.example/"}, {URI: "file://" + slashed(filepath.Join(dir, "no", "such"))}, {URI: "file://" + slashed(dir)}}, "/cwd")
	if root != dir || !strings.Contains(why, "root 3") || !strings.Contains(why, "not a file: URI") || !strings.Contains(why, "no such directory") {
		t.Errorf("pickRoot: %s (%s)", root, why)
	}
	if root, why := pickRoot(nil, "/cwd"); root != "/cwd" || !strings.Contains(why, "named no roots") {
		t.Errorf("no roots: %s (%s)", root, why)
	}
	if root, why := pickRoot([]*mcp.Root{{URI: "file://" + slashed(filepath.Join(dir, "no"))}}, "/cwd"); root != "/cwd" || !strings.Contains(why, "no root of the client's is a directory here") {
		t.Errorf("none usable: %s (%s)", root, why)
	}
}

// slashed is an absolute path as a file: URI's path writes it: "/C:/x"
// on Windows.
func slashed(p string) string {
	s := filepath.ToSlash(p)
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	return s
}

// While eukhe waits for the client's roots, the bare handshake server sees
// the client's lines up to its notifications/initialized (which the
// session is given again), then only answers: every request or
// notification after it waits for the session, none is answered by the
// handshake.
func TestLaw_roots_wait_leaves_every_later_message_to_the_session(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var h rpcHead
		h.Method = rapid.SampledFrom([]string{"", "initialize", "notifications/initialized", "tools/call", "notifications/roots/list_changed", "ping"}).Draw(rt, "method")
		if rapid.Bool().Draw(rt, "has id") {
			h.ID = []byte("1")
		}
		initialized := rapid.Bool().Draw(rt, "initialized")
		r := routeLine(initialized, h)
		switch {
		case !initialized && h.Method == "notifications/initialized":
			if r != toHandshakeAndReplay {
				rt.Fatalf("the client's initialized is not replayed: %v", r)
			}
		case !initialized:
			if r != toHandshake {
				rt.Fatalf("a line before initialized does not reach the handshake: %v", r)
			}
		case h.Method != "":
			if r != toSession {
				rt.Fatalf("%s after initialized reaches the handshake", h.Method)
			}
		case len(h.ID) > 0:
			if r != toHandshake {
				rt.Fatalf("an answer does not reach the handshake")
			}
		}
	})
}
