package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bash through the MCP session: the gate runs what the auto set holds,
// a script past the budget becomes a job, bash {job} returns it settled,
// and the session is told when it settles.
func TestBash_runs_detaches_and_settles(t *testing.T) {
	testkit.UnixPrograms(t, "cat and sleep")
	dir := t.TempDir()
	env := map[string]string{"HOME": t.TempDir()}
	paths := settings.Locate(env, []string{dir})
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS)}
	s, err := Open(Options{Host: host, ShellBudget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var notes []string
	s.SetNotify(func(text string) { mu.Lock(); notes = append(notes, text); mu.Unlock() })
	cs := connect(t, s)
	call := func(args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "bash", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	text, isErr := call(map[string]any{"script": "echo one > a.txt; cat a.txt"})
	if isErr || !strings.Contains(text, "one") {
		t.Fatalf("a plain script: %v %q", isErr, text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n" {
		t.Fatalf("a.txt is %q", b)
	}
	text, _ = call(map[string]any{"script": "sleep 1; echo done"})
	if !strings.Contains(text, "j1") {
		t.Fatalf("a script past the budget did not become job j1: %q", text)
	}
	text, isErr = call(map[string]any{"job": "j1"})
	for i := 0; i < 20 && !strings.Contains(text, "done"); i++ {
		text, isErr = call(map[string]any{"job": "j1"})
	}
	if isErr || !strings.Contains(text, "done") {
		t.Fatalf("bash {job: j1}: %v %q", isErr, text)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(notes, "\n")
		mu.Unlock()
		if strings.Contains(got, "[job-settled job:j1 status:") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no job-settled notice; got %q", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
