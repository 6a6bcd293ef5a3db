package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/gate/settings"
)

// fakeServer is a small MCP server: echo, fail (isError), crash (exits),
// hang (never answers), and one text and one binary resource.
func fakeServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	type echoIn struct {
		Message string `json:"message" jsonschema:"what to echo"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes the message"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			auth := ""
			if req.Extra != nil && req.Extra.Header != nil {
				auth = req.Extra.Header.Get("Authorization")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Message + auth}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it failed"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fake server: crashing now")
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "Never answers"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			time.Sleep(time.Hour)
			return nil, nil, nil
		})
	s.AddResource(&mcp.Resource{URI: "note://hello", Name: "hello", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "note://hello", MIMEType: "text/plain", Text: "hello, world"}}}, nil
		})
	return s
}

// TestFakeMCPServer is the fake server as a process: the tests run this
// binary again with EUKHE_FAKE_MCP=1.
func TestFakeMCPServer(t *testing.T) {
	if os.Getenv("EUKHE_FAKE_MCP") != "1" {
		t.Skip("the fake MCP server runs only as a helper process")
	}
	_ = fakeServer().Run(context.Background(), &mcp.StdioTransport{})
	os.Exit(0)
}

func fakeStdio() settings.MCPServer {
	return settings.MCPServer{Command: os.Args[0], Args: []string{"-test.run=^TestFakeMCPServer$"},
		Env: map[string]string{"EUKHE_FAKE_MCP": "1"}}
}

func dyn(w *world, name string, args map[string]any) (string, bool) {
	return w.call("dyn", map[string]any{"name": name, "arguments": args})
}

func TestDynListsAndRunsAStdioServersTools(t *testing.T) {
	w := newWorld(t)
	w.servers(map[string]settings.MCPServer{"fake": fakeStdio()})
	text, isErr := w.call("dyn", map[string]any{})
	if isErr || !strings.Contains(text, "mcp/fake/echo: Echoes the message\n  arguments: {") || !strings.Contains(text, `"message"`) {
		t.Fatalf("dyn list: %v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/fake/echo", map[string]any{"message": "hi"})
	if isErr || text != "echo: hi" {
		t.Fatalf("echo: %v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/fake/fail", nil)
	if !isErr || text != "it failed" {
		t.Fatalf("fail: %v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/fake/nosuch", nil)
	if !isErr || !strings.Contains(text, "nosuch") {
		t.Fatalf("unknown tool: %v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/other/echo", nil)
	if !isErr || !strings.Contains(text, `no MCP server "other"`) || !strings.Contains(text, "configured: fake") {
		t.Fatalf("unknown server: %v %q", isErr, text)
	}
}

// A crashed server: that call fails, saying so; the next call starts it
// again; the session stays up.
func TestDynServerCrashRestartsOnTheNextCall(t *testing.T) {
	w := newWorld(t)
	w.servers(map[string]settings.MCPServer{"fake": fakeStdio()})
	if text, isErr := dyn(w, "mcp/fake/echo", map[string]any{"message": "1"}); isErr {
		t.Fatal(text)
	}
	text, isErr := dyn(w, "mcp/fake/crash", nil)
	if !isErr || !strings.Contains(text, "starts again on the next call") || !strings.Contains(text, "crashing now") {
		t.Fatalf("crash: %v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/fake/echo", map[string]any{"message": "2"})
	if isErr || text != "echo: 2" {
		t.Fatalf("after the crash: %v %q", isErr, text)
	}
}

// A hung server: the call ends at the timeout; the server is stopped and
// the next call starts it again.
func TestDynServerHangTimesOut(t *testing.T) {
	w := newWorld(t)
	w.sess.clients.Timeout = 700 * time.Millisecond
	w.servers(map[string]settings.MCPServer{"fake": fakeStdio()})
	start := time.Now()
	text, isErr := dyn(w, "mcp/fake/hang", nil)
	if !isErr || !strings.Contains(text, "no answer within 700ms") {
		t.Fatalf("hang: %v %q", isErr, text)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the hung call took %v", d)
	}
	text, isErr = dyn(w, "mcp/fake/echo", map[string]any{"message": "3"})
	if isErr || text != "echo: 3" {
		t.Fatalf("after the hang: %v %q", isErr, text)
	}
}

func TestDynServerThatDoesNotStart(t *testing.T) {
	w := newWorld(t)
	w.servers(map[string]settings.MCPServer{
		"gone":  {Command: "/nonexistent/mcp-server"},
		"empty": {},
	})
	text, isErr := dyn(w, "mcp/gone/x", nil)
	if !isErr || !strings.Contains(text, `MCP server "gone" (/nonexistent/mcp-server) did not start`) {
		t.Fatalf("%v %q", isErr, text)
	}
	text, isErr = dyn(w, "mcp/empty/x", nil)
	if !isErr || !strings.Contains(text, "neither a command") {
		t.Fatalf("%v %q", isErr, text)
	}
	text, _ = w.call("dyn", map[string]any{})
	if !strings.Contains(text, "[mcp/gone/…: its tools cannot be listed") {
		t.Fatalf("list: %q", text)
	}
}

func TestDynStreamableHTTPServerWithBearerToken(t *testing.T) {
	fake := fakeServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return fake }, nil))
	defer srv.Close()
	w := newWorld(t)
	w.sess.clients.Getenv = func(k string) string {
		if k == "FAKE_TOKEN" {
			return "t0k"
		}
		return ""
	}
	w.servers(map[string]settings.MCPServer{"web": {Type: "http", URL: srv.URL, BearerTokenEnvVar: "FAKE_TOKEN"}})
	text, isErr := dyn(w, "mcp/web/echo", map[string]any{"message": "over http "})
	if isErr || text != "echo: over http Bearer t0k" {
		t.Fatalf("%v %q", isErr, text)
	}
}

// Clients is the URL reader's urls.ResourceSource.
func TestClientsAreAResourceSource(t *testing.T) {
	w := newWorld(t)
	w.servers(map[string]settings.MCPServer{"fake": fakeStdio()})
	var src urls.ResourceSource = w.sess.Clients()
	if !src.HasServer("fake") || src.HasServer("other") {
		t.Fatal("HasServer")
	}
	ctx := context.Background()
	list, err := src.ListResources(ctx, "fake")
	if err != nil || len(list) != 1 || list[0].URI != "note://hello" {
		t.Fatalf("list %v %v", list, err)
	}
	res, err := src.ReadResource(ctx, "fake", "note://hello")
	if err != nil || res.Contents[0].Text != "hello, world" {
		t.Fatalf("read %v %v", res, err)
	}
	// and read's mcp:// goes through it
	text, isErr := w.call("read", map[string]any{"path": "mcp://fake/note://hello"})
	if isErr || !strings.Contains(text, "hello, world") {
		t.Fatalf("read mcp://: %v %q", isErr, text)
	}
}

// A changed configuration starts the server anew.
func TestClientsRestartWhenTheirSettingsChange(t *testing.T) {
	w := newWorld(t)
	w.servers(map[string]settings.MCPServer{"fake": fakeStdio()})
	if _, isErr := dyn(w, "mcp/fake/echo", map[string]any{"message": "a"}); isErr {
		t.Fatal("first call failed")
	}
	w.servers(map[string]settings.MCPServer{"fake": {Command: "/nonexistent/x"}})
	if text, isErr := dyn(w, "mcp/fake/echo", map[string]any{"message": "a"}); !isErr || !strings.Contains(text, "did not start") {
		t.Fatalf("after the change: %v %q", isErr, text)
	}
}
