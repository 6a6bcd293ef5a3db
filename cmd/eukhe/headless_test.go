package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/protocol"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Headless eukhe mcp (issue 14): its questions reach `eukhe approvals` in
// a terminal over the session's approvals endpoint, and the agent's own
// client when it declares elicitation; the first answer wins.

// lines reads a process's output line by line, for waitLine.
type lines struct {
	t  *testing.T
	ch chan string
}

func readTestLines(t *testing.T, r io.Reader) *lines {
	l := &lines{t: t, ch: make(chan string, 256)}
	go func() {
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				l.ch <- line
			}
			if err != nil {
				close(l.ch)
				return
			}
		}
	}()
	return l
}

// wait reads lines until one holds want; it gives every line read.
func (l *lines) wait(want string) string {
	l.t.Helper()
	var all string
	for {
		select {
		case s, ok := <-l.ch:
			if !ok {
				l.t.Fatalf("the output ended before %q:\n%s", want, all)
			}
			all += s
			if strings.Contains(s, want) {
				return all
			}
		case <-time.After(60 * time.Second):
			l.t.Fatalf("no %q in:\n%s", want, all)
		}
	}
}

// approvalsTerm is a real `eukhe approvals` in dir.
type approvalsTerm struct {
	*lines
	in io.WriteCloser
}

func startApprovals(t *testing.T, env []string, dir string) *approvalsTerm {
	ap := exec.Command(binary, "approvals")
	ap.Dir, ap.Env = dir, env
	stdin, _ := ap.StdinPipe()
	stdout, _ := ap.StdoutPipe()
	ap.Stderr = os.Stderr
	if err := ap.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); ap.Wait() })
	return &approvalsTerm{lines: readTestLines(t, stdout), in: stdin}
}

func (a *approvalsTerm) say(s string) { a.in.Write([]byte(s + "\n")) }

var sessionLine = regexp.MustCompile(`session ([0-9a-f]{16}) on`)

// sessionOf is the session id a headless eukhe mcp printed.
func sessionOf(t *testing.T, p *mcpProc) string {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if m := sessionLine.FindStringSubmatch(p.stderrText()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no session line: %s", p.stderrText())
	return ""
}

func (p *mcpProc) stderrText() string {
	lw := p.stderrW
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return p.stderr.String()
}

func headlessRoot(t *testing.T) string {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	return root
}

// Two headless sessions in one root: eukhe approvals shows both, each
// named, and answers each one's question; before it is attached, the
// refusal says to start it in that directory.
func TestEukheApprovalsAnswersHeadlessSessions(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	one, two := startMCP(t, env, root), startMCP(t, env, root)
	id1, id2 := sessionOf(t, one), sessionOf(t, two)
	text, failed := one.call("bash", map[string]any{"script": "echo early > early.txt"})
	if !failed || !strings.Contains(text, "no one answered") || !strings.Contains(text, "`eukhe approvals` in a terminal in "+root) {
		t.Fatalf("refused with no terminal: %s", text)
	}
	ap := startApprovals(t, env, root)
	out := ap.wait("Questions appear here")
	if !strings.Contains(out, "headless eukhe mcp session "+id1) || !strings.Contains(out, "headless eukhe mcp session "+id2) {
		t.Fatalf("both sessions named:\n%s", out)
	}

	done := make(chan string, 1)
	go func() { text, _ := one.call("bash", map[string]any{"script": "echo a > a.txt"}); done <- text }()
	out = ap.wait("echo a > a.txt")
	if !strings.Contains(out, "Run step 1 (read+write)? Asked by the agent (session "+id1+")") {
		t.Errorf("the question names its session:\n%s", out)
	}
	ap.say("y")
	if text := <-done; strings.Contains(text, "did not run") {
		t.Fatalf("allowed in the terminal: %s", text)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Fatalf("a.txt %q", b)
	}

	go func() { text, _ := two.call("bash", map[string]any{"script": "echo b > b.txt"}); done <- text }()
	out = ap.wait("echo b > b.txt")
	if !strings.Contains(out, "(session "+id2+")") {
		t.Errorf("the question names its session:\n%s", out)
	}
	ap.say("n")
	if text := <-done; !strings.Contains(text, "the user denied it") {
		t.Fatalf("denied in the terminal: %s", text)
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("a denied step ran")
	}
}

// A session that starts after eukhe approvals is picked up.
func TestEukheApprovalsPicksUpALaterSession(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	first := startMCP(t, env, root)
	sessionOf(t, first)
	ap := startApprovals(t, env, root)
	ap.wait("Questions appear here")
	later := startMCP(t, env, root)
	ap.wait("headless eukhe mcp session " + sessionOf(t, later))
	done := make(chan string, 1)
	go func() { text, _ := later.call("bash", map[string]any{"script": "echo c > c.txt"}); done <- text }()
	ap.wait("echo c > c.txt")
	ap.say("y")
	if text := <-done; strings.Contains(text, "did not run") {
		t.Fatalf("allowed in the terminal: %s", text)
	}
}

// goClient is the go-sdk client over a real headless eukhe mcp process,
// declaring elicitation; answer answers each request.
type goClient struct {
	cs     *mcp.ClientSession
	stderr *lockedWriter
	mu     sync.Mutex
	answer func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	asked  int
}

func startGoClient(t *testing.T, env []string, root string) *goClient {
	g := &goClient{stderr: &lockedWriter{w: &strings.Builder{}}}
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env, cmd.Stderr = root, env, g.stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "go-elicit", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			g.mu.Lock()
			g.asked++
			f := g.answer
			g.mu.Unlock()
			return f(ctx, req.Params)
		}})
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	g.cs = cs
	return g
}

func (g *goClient) bash(t *testing.T, script string) (string, bool) {
	t.Helper()
	res, err := g.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"script": script}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func (g *goClient) reply(f func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)) {
	g.mu.Lock()
	g.answer = f
	g.mu.Unlock()
}

func answerWith(v string) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		if v == "decline" || v == "cancel" {
			return &mcp.ElicitResult{Action: v}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": v}}, nil
	}
}

// The go-sdk client's window and eukhe approvals both get the question:
// whichever answers first decides; the loser's dialog is settled (the
// elicitation request cancelled, the terminal's question dropped).
func TestElicitationRacesEukheApprovals(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	g := startGoClient(t, env, root)
	g.reply(answerWith("allow"))
	if text, failed := g.bash(t, "echo a > a.txt"); failed {
		t.Fatalf("allowed in the client: %s", text)
	}
	for _, v := range []string{"deny", "decline", "cancel"} {
		g.reply(answerWith(v))
		if text, failed := g.bash(t, "echo x > "+v+".txt"); !failed || !strings.Contains(text, "the user denied it") {
			t.Fatalf("%s: %s", v, text)
		}
	}
	ap := startApprovals(t, env, root)
	ap.wait("Questions appear here")

	// The client answers first, once the terminal shows the question too
	// (answered before, the terminal may never be sent it): the terminal
	// drops its question.
	shown := make(chan struct{})
	g.reply(func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		select {
		case <-shown:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return answerWith("allow")(ctx, p)
	})
	type reply struct {
		text   string
		failed bool
	}
	got := make(chan reply, 1)
	go func() { text, failed := g.bash(t, "echo b > b.txt"); got <- reply{text, failed} }()
	ap.wait("echo b > b.txt")
	close(shown)
	if r := <-got; r.failed {
		t.Fatalf("allowed in the client beside a terminal: %s", r.text)
	}
	out := ap.wait("(dropped: echo b > b.txt")
	if !strings.Contains(out, "settled elsewhere: approve") {
		t.Errorf("the terminal's drop:\n%s", out)
	}

	// The terminal answers first: the elicitation request is cancelled.
	entered, cancelled := make(chan struct{}), make(chan struct{})
	g.reply(func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		close(entered)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	done := make(chan string, 1)
	go func() { text, _ := g.bash(t, "echo c > c.txt"); done <- text }()
	ap.wait("echo c > c.txt")
	<-entered // the client shows it too
	ap.say("y")
	if text := <-done; strings.Contains(text, "did not run") {
		t.Fatalf("allowed in the terminal: %s", text)
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the client's elicitation was not cancelled when the terminal answered")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "c.txt")); string(b) != "c\n" {
		t.Fatalf("c.txt %q", b)
	}
}

// tsClient is the TypeScript SDK's client (test/mcp-peers) over a real
// headless eukhe mcp.
type tsClient struct {
	*lines
	in io.WriteCloser
}

func startTSClient(t *testing.T, env []string, root string) *tsClient {
	node, err := exec.LookPath("node")
	dir, _ := filepath.Abs(filepath.Join("..", "..", "test", "mcp-peers"))
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		testkit.Missing(t, "the TypeScript SDK client needs node and `npm ci` in test/mcp-peers (make test and .ci/run do): "+err.Error())
	}
	cmd := exec.Command(node, filepath.Join(dir, "elicit-client.mjs"), binary)
	cmd.Dir, cmd.Env, cmd.Stderr = root, env, os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	c := &tsClient{lines: readTestLines(t, out), in: in}
	c.wait(`"ready"`)
	return c
}

func (c *tsClient) send(v any) {
	b, _ := json.Marshal(v)
	c.in.Write(append(b, '\n'))
}

// result waits for the next bash result line.
func (c *tsClient) result() (text string, isErr bool) {
	c.t.Helper()
	for {
		out := c.wait(`"isError"`)
		ls := strings.Split(strings.TrimSpace(out), "\n")
		var r struct {
			Text    string
			IsError bool
		}
		if json.Unmarshal([]byte(ls[len(ls)-1]), &r) == nil {
			return r.Text, r.IsError
		}
	}
}

// The TypeScript SDK's client, which nobody here wrote: allow runs; deny,
// decline and cancel stop; when eukhe approvals answers first, its request
// is cancelled.
func TestElicitationWithTheTypeScriptClient(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	c := startTSClient(t, env, root)
	c.send(map[string]string{"answer": "allow"})
	c.wait(`"ok"`)
	c.send(map[string]string{"bash": "echo a > a.txt"})
	out := c.wait(`"elicit"`)
	if !strings.Contains(out, `echo a \u003e a.txt`) && !strings.Contains(out, "echo a > a.txt") || !strings.Contains(out, `"enum":["deny","allow","allow for this session"]`) {
		t.Fatalf("the request as the client got it:\n%s", out)
	}
	if text, isErr := c.result(); isErr {
		t.Fatalf("allowed: %s", text)
	}
	for _, v := range []string{"deny", "decline", "cancel"} {
		c.send(map[string]string{"answer": v})
		c.wait(`"ok"`)
		c.send(map[string]string{"bash": "echo x > " + v + ".txt"})
		if text, isErr := c.result(); !isErr || !strings.Contains(text, "the user denied it") {
			t.Fatalf("%s: %s", v, text)
		}
		if _, err := os.Stat(filepath.Join(root, v+".txt")); err == nil {
			t.Fatalf("%s: the step ran", v)
		}
	}
	ap := startApprovals(t, env, root)
	ap.wait("Questions appear here")
	c.send(map[string]string{"answer": "wait"})
	c.wait(`"ok"`)
	c.send(map[string]string{"bash": "echo t > t.txt"})
	ap.wait("echo t > t.txt")
	c.wait(`"elicit"`) // the client shows it too
	ap.say("y")
	// The result and the cancellation come in either order.
	var result, cancelled bool
	for !result || !cancelled {
		out := c.wait("\n")
		switch {
		case strings.Contains(out, `"cancelled"`):
			cancelled = true
		case strings.Contains(out, `"isError":true`):
			t.Fatalf("allowed in the terminal: %s", out)
		case strings.Contains(out, `"isError"`):
			result = true
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "t.txt")); string(b) != "t\n" {
		t.Fatalf("t.txt %q", b)
	}
}

// Under an editor: the agent's client is asked beside the editor; the
// first answer wins either way.
func TestElicitationRacesTheEditor(t *testing.T) {
	env := attachEnv(t)
	entered := make(chan struct{}, 4)
	e := startEditor(t, env, func(n int) string {
		if n == 1 {
			return "" // the editor never answers the first
		}
		<-entered // the second: the editor answers once the client shows it too
		return "approve"
	})
	g := startGoClient(t, env, e.root)
	g.reply(answerWith("allow"))
	if text, failed := g.bash(t, "echo a > a.txt"); failed {
		t.Fatalf("allowed in the client while the editor's dialog is up: %s", text)
	}
	// the editor's dialog is settled with the client's answer, not as
	// unanswered
	for i := 0; ; i++ {
		e.mu.Lock()
		got := slices.Clone(e.settled)
		e.mu.Unlock()
		if len(got) > 0 {
			if got[0].Answer != protocol.AnswerApprove {
				t.Fatalf("the editor was told the question settled as %q, want approve", got[0].Answer)
			}
			break
		}
		if i == 3000 {
			t.Fatal("the editor was never told the client answered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancelled := make(chan struct{})
	g.reply(func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		entered <- struct{}{}
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	if text, failed := g.bash(t, "echo b > b.txt"); failed {
		t.Fatalf("allowed in the editor: %s", text)
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the client's elicitation was not cancelled when the editor answered")
	}
	e.mu.Lock()
	n := len(e.asked)
	e.mu.Unlock()
	if n != 2 {
		t.Fatalf("the editor was asked %d times, want 2", n)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(e.root, f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

// eukhe approvals --gateway on a headless session: no question is shown;
// the gateway rule runs a write and refuses a protected one (G5).
func TestEukheApprovalsGatewayOnAHeadlessSession(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	p := startMCP(t, env, root)
	sessionOf(t, p)
	ap := exec.Command(binary, "approvals", "--gateway", "--root", root)
	ap.Env = env
	stdin, _ := ap.StdinPipe()
	stdout, _ := ap.StdoutPipe()
	if err := ap.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); ap.Process.Kill(); ap.Wait() })
	readTestLines(t, stdout).wait("As a gateway")
	if text, failed := p.call("bash", map[string]any{"script": "echo w > w.txt"}); failed {
		t.Fatalf("a write by the gateway rule: %s", text)
	}
	text, failed := p.call("bash", map[string]any{"script": "echo x > .git/config"})
	if !failed || !strings.Contains(text, "gateway") {
		t.Fatalf("a protected write by the gateway rule: %s", text)
	}
}

// session is the go client's eukhe mcp session id.
func (g *goClient) session(t *testing.T) string {
	t.Helper()
	for i := 0; i < 3000; i++ {
		g.stderr.mu.Lock()
		m := sessionLine.FindStringSubmatch(g.stderr.w.(*strings.Builder).String())
		g.stderr.mu.Unlock()
		if m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no session line from eukhe mcp")
	return ""
}

// A headless subagent in another process (eukhe mcp --parent) relays its
// question to its parent's session (G5): the parent's client is asked,
// naming the subagent, and its answer decides.
func TestHeadlessSubagentAsksThroughItsParentsClient(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	parent := startGoClient(t, env, root)
	var mu sync.Mutex
	var asked []string
	answer := "allow"
	parent.reply(func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, p.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": answer}}, nil
	})
	child := startMCP(t, env, root, "--parent", parent.session(t))
	childID := sessionOf(t, child)
	if text, failed := child.call("bash", map[string]any{"script": "echo sub > sub.txt"}); failed {
		t.Fatalf("the subagent's step allowed in the parent's client: %s", text)
	}
	mu.Lock()
	answer = "deny"
	mu.Unlock()
	if text, _ := child.call("bash", map[string]any{"script": "echo no > no.txt"}); !strings.Contains(text, "the user denied it") {
		t.Fatalf("denied in the parent's client: %s", text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || !strings.Contains(asked[0], "Asked by subagent "+childID) {
		t.Fatalf("the parent's client was asked %q", asked)
	}
	if _, err := os.Stat(filepath.Join(root, "no.txt")); err == nil {
		t.Fatal("a denied step ran")
	}
}

// Two headless sessions that name each other as parent (b by --parent,
// a by initialize's _meta): a question goes round once and ends
// unanswered, not forever.
func TestHeadlessParentLoopEnds(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	// --root: the session exists before its client's initialize (without
	// it, eukhe mcp waits for initialize to choose the root)
	a := startMCPUninitialized(t, env, root, "--root", root)
	aID := sessionOf(t, a)
	b := startMCP(t, env, root, "--parent", aID)
	a.initialize(map[string]any{"eukhe/parent": sessionOf(t, b)})
	for _, p := range []*mcpProc{a, b} {
		text, failed := p.call("bash", map[string]any{"script": "echo x > x.txt"})
		if !failed || !strings.Contains(text, "no one answered") {
			t.Fatalf("a question in a loop of parents: %s", text)
		}
	}
}
