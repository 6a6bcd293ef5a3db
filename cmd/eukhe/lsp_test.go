package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
)

// eukhe lsp as an editor starts it: a process speaking LSP on its standard
// input and output, ending with status 0 after shutdown and exit.

func TestLSPUsage(t *testing.T) {
	if r := eukhe(t, "", "lsp", "--help"); r.code != 0 || !strings.Contains(r.stdout, "Usage: eukhe lsp") {
		t.Errorf("eukhe lsp --help: %+v", r)
	}
	if r := eukhe(t, "", "lsp", "--bogus"); r.code != 2 || !strings.Contains(r.stderr, "unknown option --bogus") {
		t.Errorf("eukhe lsp --bogus: %+v", r)
	}
	if r := eukhe(t, "", "lsp", "--root", "/no/such/dir"); r.code != 2 || !strings.Contains(r.stderr, "give a directory that exists") {
		t.Errorf("eukhe lsp --root missing: %+v", r)
	}
}

// pipes joins a process's stdout and stdin into one stream.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

func TestLSPExitStatus(t *testing.T) {
	for _, c := range []struct {
		name     string
		shutdown bool
		want     int
	}{
		{"shutdown then exit", true, 0},
		{"exit without shutdown", false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "trace.log")
			cmd := exec.Command(binary, "lsp", "--root", t.TempDir(), "--trace", trace)
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{out, in}))
			conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var res jsonrpc2.RawMessage
			if _, err := conn.Call(ctx, lsproto.MethodInitialize, map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res); err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if !strings.Contains(string(res), `"positionEncoding":"utf-16"`) {
				t.Errorf("initialize result: %s", res)
			}
			if c.shutdown {
				if _, err := conn.Call(ctx, lsproto.MethodShutdown, nil, nil); err != nil {
					t.Fatalf("shutdown: %v", err)
				}
			}
			if err := conn.Notify(ctx, lsproto.MethodExit, nil); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != c.want {
					t.Errorf("exit status %d, want %d", code, c.want)
				}
				b, _ := os.ReadFile(trace)
				if !strings.Contains(string(b), `"method":"initialize"`) || !strings.Contains(string(b), `"method":"exit"`) || !strings.Contains(string(b), `-> {"jsonrpc":"2.0","id":1,"result":{`) {
					t.Errorf("--trace wrote:\n%s", b)
				}
			case <-ctx.Done():
				cmd.Process.Kill()
				t.Fatal("eukhe lsp did not exit after the exit notification")
			}
			conn.Close()
		})
	}
}
