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

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// The editor dies (its eukhe lsp killed) while an attached agent's call
// waits on it: the call gets a clear error, and the agent keeps its tools,
// headless on the disk, told once (issue 15, item 9).
func TestTheEditorDyingLeavesTheAgentItsToolsHeadless(t *testing.T) {
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	lsp := exec.Command(binary, "lsp", "--root", root)
	lsp.Env = env
	in, _ := lsp.StdinPipe()
	out, _ := lsp.StdoutPipe()
	if err := lsp.Start(); err != nil {
		t.Fatal(err)
	}
	defer lsp.Process.Kill()
	asked := make(chan struct{}, 1)
	end := make(chan struct{})
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{out, in}))
	conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodApprove {
			asked <- struct{}{}
			jsonrpc2.Async(ctx)
			<-end // never answered: the editor dies first
		}
		return nil, nil
	})
	defer func() { close(end); conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var res json.RawMessage
	ex := map[string]any{"eukhe": map[string]any{"kind": "test", "methods": []string{protocol.MethodApprove}}}
	if _, err := conn.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + root,
		"capabilities": map[string]any{"experimental": ex}}, &res); err != nil {
		t.Fatal(err)
	}
	conn.Notify(ctx, "initialized", map[string]any{})
	for {
		if files, _ := filepath.Glob(filepath.Join(envMap(env)["XDG_RUNTIME_DIR"], "eukhe", "*.json")); len(files) == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no discovery file")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ag := startMCP(t, env, root)
	go func() {
		<-asked
		lsp.Process.Kill() // SIGKILL: no answer, no goodbye
	}()
	text, failed := ag.call("bash", map[string]any{"script": "echo hi > x.txt"})
	if !failed || !strings.Contains(text, "went away") || !strings.Contains(text, "headless") {
		t.Fatalf("the call in flight when the editor died:\n%s\n%s", text, ag.stderr)
	}
	if text, failed := ag.call("read", map[string]any{"path": "a.txt"}); failed || !strings.Contains(text, "1:on disk") {
		t.Fatalf("a read after the editor died:\n%s\n%s", text, ag.stderr)
	}
	// the settings auto-run only reads: a write now needs an approval no
	// one can give, and is refused saying so
	if text, failed := ag.call("edit", map[string]any{"patch": "[a.txt#" + tagOfRead(t, ag) + "]\n@@ 1\n+edited\n"}); !failed || !strings.Contains(text, "approval") {
		t.Fatalf("an edit after the editor died:\n%s\n%s", text, ag.stderr)
	}
	if n := strings.Count(ag.stderr.String(), "went away"); n != 1 {
		t.Fatalf("standard error says %d times that the editor went away:\n%s", n, ag.stderr)
	}
}

func tagOfRead(t *testing.T, ag *mcpProc) string {
	text, _ := ag.call("read", map[string]any{"path": "a.txt"})
	head, _, _ := strings.Cut(text, "\n")
	i := strings.LastIndex(head, "#")
	if i < 0 {
		t.Fatalf("no tag: %s", text)
	}
	return strings.TrimSuffix(head[i+1:], "]")
}
