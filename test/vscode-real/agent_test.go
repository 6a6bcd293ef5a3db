package vscodereal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// agent is eukhe mcp run in the workspace, as a coding agent runs it: it
// attaches to the window's eukhe lsp. One call at a time; a call may run
// in its own goroutine (it returns its failure rather than ending the
// test).
type agent struct {
	mu     sync.Mutex
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *lockedWriter
	id     int
}

// attach starts the agent; it lives until t ends.
func (s *session) attach(t *testing.T) *agent {
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = s.w.Root, s.w.Env("XDG_CACHE_HOME="+s.w.Home+"/cache")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	a := &agent{in: in, out: bufio.NewReader(out), stderr: &lockedWriter{w: &bytes.Buffer{}}}
	cmd.Stderr = a.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); stop(cmd) })
	if _, err := a.rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "vscode-real-test", "version": "1"}}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, a.stderr.String())
	}
	a.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return a
}

func (a *agent) send(v any) error {
	b, _ := json.Marshal(v)
	_, err := a.in.Write(append(b, '\n'))
	return err
}

func (a *agent) rpc(method string, params any) (json.RawMessage, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.id++
	if err := a.send(map[string]any{"jsonrpc": "2.0", "id": a.id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := a.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: eukhe mcp ended: %v", method, err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil || *m.ID != a.id {
			continue
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error)
		}
		return m.Result, nil
	}
}

// call runs a tool: its text and whether it is an error result.
func (a *agent) call(name string, args any) (string, bool, error) {
	raw, err := a.rpc("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return "", false, err
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		return "", false, fmt.Errorf("%s: %s", name, raw)
	}
	return r.Content[0].Text, r.IsError, nil
}

// must is call, failing the test on a failed call or an error result.
func (a *agent) must(t *testing.T, name string, args any) string {
	t.Helper()
	text, isErr, err := a.call(name, args)
	if err != nil || isErr {
		t.Fatalf("%s %v: %v\n%s\neukhe mcp:\n%s", name, args, err, text, a.stderr.String())
	}
	return text
}

var tagRE = regexp.MustCompile(`(?m)^\[[^\]#]*#([0-9a-f]+)\]`)

// tagOf is the tag of a read's header "[path#TAG]".
func tagOf(read string) string {
	m := tagRE.FindStringSubmatch(read)
	if m == nil {
		return ""
	}
	return m[1]
}

// readUntil reads path until its text contains want (the editor sends
// its changes a moment after the keys), at most 20 s; it gives the last
// read.
func (a *agent) readUntil(t *testing.T, path, want string) (string, bool) {
	t.Helper()
	var text string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if text = a.must(t, "read", map[string]any{"path": path}); bytes.Contains([]byte(text), []byte(want)) {
			return text, true
		}
	}
	return text, false
}
