package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent started before the editor's server was up attaches at its next
// tool call, and is told so in that call's result; when that editor quits
// with no call running, the next result says reads come from the disk
// again (issue 22, items 4 and 7).
func TestAnAgentStartedBeforeTheEditorAttachesLater(t *testing.T) {
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	ag := startMCP(t, env, root)
	if text, failed := ag.call("read", map[string]any{"path": "a.txt"}); failed || !strings.Contains(text, "1:on disk") || strings.Contains(text, "attached") {
		t.Fatalf("a read before the editor is up:\n%s\n%s", text, ag.stderrText())
	}
	e := startEditorAt(t, env, root, func(int) string { return "approve" })
	e.open("a.txt", "unsaved in the editor\n")
	text, failed := ag.call("read", map[string]any{"path": "a.txt"})
	if failed || !strings.Contains(text, "1:unsaved in the editor") || !strings.Contains(text, "is up now, and this session is attached to it") {
		t.Fatalf("the first read once the editor is up:\n%s\n%s", text, ag.stderrText())
	}
	if text, _ := ag.call("read", map[string]any{"path": "a.txt"}); strings.Contains(text, "attached") {
		t.Fatalf("the attachment is said twice:\n%s", text)
	}
	// A gated step is the editor's question now.
	if text, failed := ag.call("bash", map[string]any{"script": "echo yes > approved.txt"}); failed {
		t.Fatalf("a step the editor approves: %s\n%s", text, ag.stderrText())
	}
	e.mu.Lock()
	asked := len(e.asked)
	e.mu.Unlock()
	if asked != 1 {
		t.Fatalf("the editor was asked %d times", asked)
	}
	// The editor quits while no call runs.
	var r json.RawMessage
	e.conn.Call(context.Background(), "shutdown", nil, &r)
	e.conn.Notify(context.Background(), "exit", nil)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(ag.stderrText(), "went away") {
		if time.Now().After(deadline) {
			t.Fatalf("eukhe mcp never saw the editor go:\n%s", ag.stderrText())
		}
		time.Sleep(10 * time.Millisecond)
	}
	text, failed = ag.call("read", map[string]any{"path": "a.txt"})
	if failed || !strings.Contains(text, "1:on disk") || !strings.Contains(text, "the editor quit") || !strings.Contains(text, "reads now come from the disk") {
		t.Fatalf("the first read after the editor quit:\n%s\n%s", text, ag.stderrText())
	}
	if text, _ := ag.call("read", map[string]any{"path": "a.txt"}); strings.Contains(text, "quit") {
		t.Fatalf("the quit is said twice:\n%s", text)
	}
}

// An agent attached from its start, whose editor quits while no call
// runs: the next tool result says once that the editor quit and reads now
// come from the disk (issue 22, item 7); before, only a log notification
// said it, in the words for a call in flight.
func TestTheEditorQuittingIsSaidInTheNextToolResult(t *testing.T) {
	env := attachEnv(t)
	e := startEditor(t, env, func(int) string { return "approve" })
	os.WriteFile(filepath.Join(e.root, "a.txt"), []byte("on disk\n"), 0o644)
	e.open("a.txt", "unsaved in the editor\n")
	ag := startMCP(t, env, e.root)
	if text, failed := ag.call("read", map[string]any{"path": "a.txt"}); failed || !strings.Contains(text, "1:unsaved in the editor") || strings.Contains(text, "attached") {
		t.Fatalf("a read through the editor:\n%s\n%s", text, ag.stderrText())
	}
	var r json.RawMessage
	e.conn.Call(context.Background(), "shutdown", nil, &r)
	e.conn.Notify(context.Background(), "exit", nil)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(ag.stderrText(), "went away") {
		if time.Now().After(deadline) {
			t.Fatalf("eukhe mcp never saw the editor go:\n%s", ag.stderrText())
		}
		time.Sleep(10 * time.Millisecond)
	}
	text, failed := ag.call("read", map[string]any{"path": "a.txt"})
	if failed || !strings.Contains(text, "1:on disk") || !strings.Contains(text, "the editor quit") || !strings.Contains(text, "reads now come from the disk") || strings.Contains(text, "while this call ran") {
		t.Fatalf("the first read after the editor quit:\n%s\n%s", text, ag.stderrText())
	}
	if text, _ := ag.call("read", map[string]any{"path": "a.txt"}); strings.Contains(text, "quit") {
		t.Fatalf("the quit is said twice:\n%s", text)
	}
}

// The official SDK's client speaks MCP 2026-07-28, which has no
// initialize: its first request is server/discover. An agent of it
// started before the editor attaches later too (keyed on initialize
// alone, it never did: found by the Helix test), and goes on headless
// when that editor quits.
func TestAnAgentOfTheNewestMCPStartedBeforeTheEditorAttachesLater(t *testing.T) {
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = root, env
	stderr := &lockedWriter{w: &strings.Builder{}}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "newest", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	read := func() string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "a.txt"}})
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	if text := read(); !strings.Contains(text, "1:on disk") {
		t.Fatalf("a read before the editor is up:\n%s", text)
	}
	e := startEditorAt(t, env, root, func(int) string { return "approve" })
	e.open("a.txt", "unsaved in the editor\n")
	if text := read(); !strings.Contains(text, "1:unsaved in the editor") || !strings.Contains(text, "is up now, and this session is attached to it") {
		t.Fatalf("the first read once the editor is up:\n%s", text)
	}
	var r json.RawMessage
	e.conn.Call(context.Background(), "shutdown", nil, &r)
	e.conn.Notify(context.Background(), "exit", nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		text := read()
		if strings.Contains(text, "1:on disk") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reads never came from the disk again after the editor quit:\n%s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
