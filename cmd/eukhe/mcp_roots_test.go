//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them, and its clients are served the current directory

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsClient starts eukhe mcp in dir, without --root, for a Go SDK
// client offering roots.
func rootsClient(t *testing.T, dir string, roots ...string) (*mcp.Client, *mcp.ClientSession, *lockedWriter) {
	t.Helper()
	stderr := &lockedWriter{w: &strings.Builder{}}
	cmd := exec.Command(binary, "mcp")
	home := t.TempDir()
	cmd.Dir, cmd.Stderr = dir, stderr
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	c := mcp.NewClient(&mcp.Implementation{Name: "roots-client", Version: "1"}, nil)
	for _, r := range roots {
		c.AddRoots(&mcp.Root{URI: r})
	}
	// roots are asked in the initialize handshake of MCP up to 2025-11-25
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return c, cs, stderr
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// Started in another directory (as Claude Desktop starts servers in / or
// the home), eukhe mcp serves the client's first root that is a directory
// here, and its first line says so; a client without roots gets the
// current directory; roots changed later are said (on standard error and
// to the agent, in the next tool result), not followed.
func TestMCPServesTheClientsRoots(t *testing.T) {
	proj := t.TempDir()
	writeFile(t, filepath.Join(proj, "a.txt"), "from the root\n", 0o644)
	elsewhere := t.TempDir()

	_, cs, stderr := rootsClient(t, elsewhere, "https://example.org/x", "file://"+filepath.Join(proj, "gone"), "file://"+proj, "file://"+elsewhere)
	if text := callText(t, cs, "read", map[string]any{"path": "a.txt"}); !strings.Contains(text, "from the root") {
		t.Fatalf("the read did not reach the client's root:\n%s\n%s", text, stderr)
	}
	first, _, _ := strings.Cut(stderr.String(), "\n")
	// (the SDK sends its roots sorted by URI)
	if !strings.Contains(first, "serving "+proj+" (the client's") || !strings.Contains(first, "more not served") {
		t.Errorf("the first line does not say which root is served and why: %q", first)
	}

	c, cs, stderr := rootsClient(t, elsewhere)
	writeFile(t, filepath.Join(elsewhere, "b.txt"), "here\n", 0o644)
	if text := callText(t, cs, "read", map[string]any{"path": "b.txt"}); !strings.Contains(text, "here") {
		t.Fatalf("without roots the current directory is not served:\n%s", text)
	}
	if first, _, _ := strings.Cut(stderr.String(), "\n"); !strings.Contains(first, "serving "+elsewhere+" (the current directory") {
		t.Errorf("the first line: %q", first)
	}
	c.AddRoots(&mcp.Root{URI: "file://" + proj})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "roots changed") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "the client's roots changed; this session stays on "+elsewhere) {
		t.Errorf("a change of roots is not said:\n%s", stderr)
	}
	// the agent is told too: the next tool result says, once, in one
	// line, the client's roots now, the root still served and how to
	// serve the new one
	text := callText(t, cs, "read", map[string]any{"path": "b.txt"})
	if !strings.Contains(text, "here") {
		t.Fatalf("after the change the session does not go on:\n%s", text)
	}
	var notes []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "roots changed") {
			notes = append(notes, l)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "the client's roots changed to "+proj) ||
		!strings.Contains(notes[0], "this session still serves "+elsewhere) ||
		!strings.Contains(notes[0], "to serve "+proj+", restart eukhe's MCP server") {
		t.Errorf("the tool result after the change does not say it in one line (the roots now, the root served, how to serve the new one):\n%s", text)
	}
	if text := callText(t, cs, "read", map[string]any{"path": "b.txt"}); strings.Contains(text, "roots changed") {
		t.Errorf("the change is said again:\n%s", text)
	}
}

// String is what was written so far.
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.(*strings.Builder).String()
}
