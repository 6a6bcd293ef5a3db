package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// stoppable is the editor's end of eukhe lsp's output: while stopped it
// reads nothing, as a stopped editor (SIGSTOP) reads nothing — the real
// pipe between them fills and eukhe lsp's writes to it block.
type stoppable struct {
	io.ReadCloser
	mu   sync.Mutex
	cond *sync.Cond
	stop bool
}

func newStoppable(r io.ReadCloser) *stoppable {
	s := &stoppable{ReadCloser: r}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *stoppable) Read(b []byte) (int, error) {
	s.mu.Lock()
	for s.stop {
		s.cond.Wait()
	}
	s.mu.Unlock()
	return s.ReadCloser.Read(b)
}

func (s *stoppable) set(stop bool) {
	s.mu.Lock()
	s.stop = stop
	s.cond.Broadcast()
	s.mu.Unlock()
}

// A stopped editor (issue: nothing stuck), through a real eukhe lsp and
// real eukhe mcp agents attached to it: the editor stops reading while a
// 200 KB edit of its open document goes out, so the real pipe fills.
// Three agents' edits of closed files land meanwhile; the first agent's
// reply comes within its deadline and says "not confirmed", never "NOT
// applied"; once the editor reads again the edit reaches its buffer.
func TestAStoppedEditorStopsOnlyItsOwnDocuments(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := t.TempDir()
	mustDo(t, os.MkdirAll(filepath.Join(home, "config", "eukhe"), 0o700))
	mustDo(t, os.WriteFile(filepath.Join(home, "config", "eukhe", "settings.json"), []byte("{}"), 0o600))
	run, err := os.MkdirTemp("", "eu")
	mustDo(t, err)
	t.Cleanup(func() { os.RemoveAll(run) })
	env := []string{"XDG_RUNTIME_DIR=" + run, "EUKHE_LSP_CALL_TIMEOUT=2s"}
	var gate *stoppable
	e, _ := startLSPEditorOn(t, root, home, env, nil, func(r io.ReadCloser) io.ReadCloser { gate = newStoppable(r); return gate })
	t.Cleanup(func() { gate.set(false) })
	e.put("open.txt", "open\n")
	for _, f := range []string{"c1.txt", "sub/c2.txt", "other/c3.txt"} {
		e.put(f, "closed\n")
	}
	e.open("open.txt", "open\n")
	agentEnv := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_RUNTIME_DIR=" + run, "PATH=" + os.Getenv("PATH")}
	deadline := time.Now().Add(30 * time.Second) // the server's socket: a hang guard
	for {
		if files, _ := filepath.Glob(filepath.Join(run, "eukhe", "*.json")); len(files) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("eukhe lsp published no discovery file")
		}
		time.Sleep(10 * time.Millisecond)
	}
	agents := make([]*mcpProc, 4)
	for i := range agents {
		agents[i] = startMCP(t, agentEnv, root)
	}
	tagRe := regexp.MustCompile(`^\[[^#\]]+#([0-9a-f]+)\]`)
	tagOf := func(p *mcpProc, f string) string {
		text, failed := p.call("read", map[string]any{"path": f})
		m := tagRe.FindStringSubmatch(text)
		if failed || m == nil {
			t.Fatalf("read %s: %s", f, text)
		}
		return m[1]
	}
	big := strings.Repeat("x", 200<<10)
	patch := "[open.txt#" + tagOf(agents[0], "open.txt") + "]\n@@ 1\n+" + big + "\n"
	gate.set(true) // the editor stops
	first := make(chan string, 1)
	go func() { text, _ := agents[0].call("edit", map[string]any{"patch": patch}); first <- text }()
	for k, f := range []string{"c1.txt", "sub/c2.txt", "other/c3.txt"} {
		p := agents[k+1]
		text, failed := p.call("edit", map[string]any{"patch": "[" + f + "#" + tagOf(p, f) + "]\n@@ 1\n+edited\n"})
		if failed || !strings.HasPrefix(text, "Applied to ") {
			t.Fatalf("the edit of closed %s while the editor is stopped: %s", f, text)
		}
	}
	var text string
	select {
	case text = <-first:
	case <-time.After(60 * time.Second): // a hang guard, far past the 2 s deadline
		t.Fatal("the edit of the stopped editor's document never got its reply")
	}
	if strings.Contains(text, "NOT applied to open.txt") || !strings.Contains(text, "not confirmed") {
		t.Fatalf("the reply to the edit the stopped editor did not answer: %.400s", text)
	}
	gate.set(false) // the editor reads again
	deadline = time.Now().Add(30 * time.Second)
	for !e.buffersHold(big) {
		if time.Now().After(deadline) {
			t.Fatal("the edit never reached the editor's buffer once it read again")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
