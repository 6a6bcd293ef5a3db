package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress of long calls over MCP, seen by the go-sdk's client against
// the real eukhe mcp: a call that sends a progressToken gets
// notifications/progress, one that sends none gets nothing.

// progressEnv is a home with no settings file (the default auto set runs
// a loop unasked), and EUKHE_PROGRESS_EVERY set to every when not "".
func progressEnv(t *testing.T, every string) []string {
	home := t.TempDir()
	run, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_RUNTIME_DIR=" + run, "PATH=" + os.Getenv("PATH")}
	if every != "" {
		env = append(env, "EUKHE_PROGRESS_EVERY="+every)
	}
	return env
}

// progressClient is the go-sdk client over eukhe mcp, keeping every
// progress notification by token.
type progressClient struct {
	cs  *mcp.ClientSession
	mu  sync.Mutex
	got map[string][]*mcp.ProgressNotificationParams
	all int
}

func startProgressClient(t *testing.T, env []string, root string) *progressClient {
	pc := &progressClient{got: map[string][]*mcp.ProgressNotificationParams{}}
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env, cmd.Stderr = root, env, &lockedWriter{w: &strings.Builder{}}
	c := mcp.NewClient(&mcp.Implementation{Name: "go-progress", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			pc.mu.Lock()
			defer pc.mu.Unlock()
			tok := fmt.Sprint(req.Params.ProgressToken)
			pc.got[tok] = append(pc.got[tok], req.Params)
			pc.all++
		}})
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	pc.cs = cs
	return pc
}

// call runs a tool, with a progress token (a string or an integer) when
// token is not nil, and gives its text and the notifications its token
// got.
func (pc *progressClient) call(t *testing.T, token any, tool string, args map[string]any) (string, []*mcp.ProgressNotificationParams) {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	if token != nil {
		p.SetProgressToken(token)
	}
	res, err := pc.cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		t.Fatalf("%s: %s", tool, text)
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return text, pc.got[fmt.Sprint(token)]
}

// await gives token's notifications once done holds for them: the
// client may handle a notification after the reply that followed it.
func (pc *progressClient) await(t *testing.T, token any, done func(ps []*mcp.ProgressNotificationParams) bool) []*mcp.ProgressNotificationParams {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a hang guard only
	for {
		pc.mu.Lock()
		ps := append([]*mcp.ProgressNotificationParams(nil), pc.got[fmt.Sprint(token)]...)
		pc.mu.Unlock()
		if done(ps) {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for the notifications of %v: %+v", token, ps)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// walkHeard calls a grep or glob over a tree of files files, each time
// with a fresh token, until a call is heard of, and gives that call's
// notifications once the last counts all the files, and the tokens it
// tried. A walk of a warm tree can end before the ticker's first tick
// under load, and then it rightly reports nothing (CI runs, for a grep
// and for a glob); nor can a test count on a tick mid-walk.
func (pc *progressClient) walkHeard(t *testing.T, tool string, args map[string]any, files int) ([]*mcp.ProgressNotificationParams, []string) {
	t.Helper()
	verb := map[string]string{"grep": "searched", "glob": "considered"}[tool]
	var tried []string
	for try := 1; try <= 10; try++ {
		token := fmt.Sprintf("%s%d", tool, try)
		tried = append(tried, token)
		text, _ := pc.call(t, token, tool, args)
		if tool == "grep" && !strings.Contains(text, "f1234.txt") {
			t.Fatalf("grep: %s", text)
		}
		// The client may handle a notification after the reply that
		// followed it: a second is a generous wait for one sent.
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			pc.mu.Lock()
			n := len(pc.got[token])
			pc.mu.Unlock()
			if n > 0 {
				return pc.await(t, token, lastSays(fmt.Sprintf("%d files %s", files, verb))), tried
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Fatalf("ten %s calls over %d files, none heard of", tool, files)
	return nil, nil
}

// lastSays holds when the last notification's message is msg.
func lastSays(msg string) func([]*mcp.ProgressNotificationParams) bool {
	return func(ps []*mcp.ProgressNotificationParams) bool { return len(ps) > 0 && ps[len(ps)-1].Message == msg }
}

// others counts the notifications on a token none of tokens names (a late
// notification of an earlier call is its token's, not another call's).
func (pc *progressClient) others(tokens ...string) int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	n := pc.all
	for _, tok := range tokens {
		n -= len(pc.got[tok])
	}
	return n
}

// checkRising fails unless there are at least min notifications, each
// one's progress above the one before.
func checkRising(t *testing.T, ps []*mcp.ProgressNotificationParams, min int) {
	t.Helper()
	if len(ps) < min {
		t.Fatalf("%d notifications, want %d or more: %+v", len(ps), min, ps)
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].Progress <= ps[i-1].Progress {
			t.Fatalf("progress %v then %v", ps[i-1].Progress, ps[i].Progress)
		}
	}
}

var linesSoFar = regexp.MustCompile(` — (\d+) lines? of output so far$| — no output yet$`)

// A four-second bash loop, at the default interval of a second: the
// client hears how it goes while it runs, each notification naming the
// step (1 of 1: the loop is outside the step grammar) and counting the
// lines printed so far, the counts rising to 4; the same loop without a
// token is heard of not at all.
func TestMCPProgressOfABashLoop(t *testing.T) {
	root := headlessRoot(t)
	pc := startProgressClient(t, progressEnv(t, ""), root)
	text, _ := pc.call(t, "loop", "bash", map[string]any{"script": "for i in 1 2 3 4; do echo $i; sleep 1; done"})
	if !strings.Contains(text, "1\n2\n3\n4\n") {
		t.Fatalf("bash: %s", text)
	}
	ps := pc.await(t, "loop", lastSays("step 1 of 1: for i in 1 2 3 4; do … — 4 lines of output so far"))
	checkRising(t, ps, 3)
	lines := -1
	for _, p := range ps {
		if !strings.HasPrefix(p.Message, "step 1 of 1: for i in 1 2 3 4; do … — ") {
			t.Fatalf("message %q", p.Message)
		}
		m := linesSoFar.FindStringSubmatch(p.Message)
		if m == nil {
			t.Fatalf("no line count in %q", p.Message)
		}
		n, _ := strconv.Atoi(m[1]) // "" (no output yet) is 0
		if n < lines {
			t.Fatalf("the line count fell: %+v", ps)
		}
		lines = n
	}
	if lines != 4 {
		t.Fatalf("the last notification counts %d lines: %q", lines, ps[len(ps)-1].Message)
	}
	t.Logf("%d notifications; the first %q, the last %q", len(ps), ps[0].Message, ps[len(ps)-1].Message)

	pc.call(t, nil, "bash", map[string]any{"script": "for i in 1 2; do echo $i; sleep 1; done"})
	pc.call(t, "after", "bash", map[string]any{"script": "echo a; sleep 1.5"})
	pc.await(t, "after", lastSays("step 2 of 2: sleep 1.5 — 1 line of output so far"))
	if n := pc.others("loop", "after"); n != 0 {
		t.Fatalf("a call without a token got %d notifications", n)
	}
}

// A grep and a glob over a few thousand files, with the interval set short
// by EUKHE_PROGRESS_EVERY: files searched (considered), rising to all of
// them; without a token, nothing.
func TestMCPProgressOfAGrepOverALargeTree(t *testing.T) {
	root := headlessRoot(t)
	const files = 4000
	for i := range files {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%50))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		body := strings.Repeat("nothing to see on this line\n", 40)
		if i == 1234 {
			body += "needle\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pc := startProgressClient(t, progressEnv(t, "1ms"), root)
	var tokens []string
	for _, walk := range []struct{ tool, pattern, verb string }{{"grep", "needle", "searched"}, {"glob", "f1*.txt", "considered"}} {
		ps, tried := pc.walkHeard(t, walk.tool, map[string]any{"pattern": walk.pattern}, files)
		tokens = append(tokens, tried...)
		checkRising(t, ps, 1)
		count := regexp.MustCompile(`^(\d+) files? ` + walk.verb + `$`)
		for _, p := range ps {
			if m := count.FindStringSubmatch(p.Message); m == nil || m[1] != strconv.Itoa(int(p.Progress)) {
				t.Fatalf("%s: message %q at progress %v", walk.tool, p.Message, p.Progress)
			}
		}
		t.Logf("%s: %d notifications (try %d); the first %q", walk.tool, len(ps), len(tried), ps[0].Message)
	}

	// Without a token, nothing; a call with one after them shows that
	// whatever was sent before it has been handled. The mark is a step
	// that outlasts many intervals: a grep of the warm tree told nothing
	// once under load (a CI rehearsal), its walk shorter than the
	// ticker's first tick.
	pc.call(t, nil, "grep", map[string]any{"pattern": "needle"})
	pc.call(t, nil, "glob", map[string]any{"pattern": "*.txt"})
	pc.call(t, "after", "bash", map[string]any{"script": "sleep 0.3"})
	pc.await(t, "after", func(ps []*mcp.ProgressNotificationParams) bool { return len(ps) > 0 })
	if n := pc.others(append(tokens, "after")...); n != 0 {
		t.Fatalf("calls without a token got %d notifications", n)
	}
}
