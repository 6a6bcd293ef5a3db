package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// elicitWorld is a headless session whose auto set is read only (a write
// asks), served to a go-sdk client that declares elicitation (when answer
// is set) and answers each request with answer.
type elicitWorld struct {
	t    *testing.T
	dir  string
	home string
	sess *Session
	cs   *mcp.ClientSession

	mu       sync.Mutex
	set      settings.Settings
	asked    []*mcp.ElicitParams
	methods  []string
	answer   func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	terminal func(ctx context.Context, q gate.Question) gate.Answer
}

func newElicitWorld(t *testing.T, elicits bool, terminal bool) *elicitWorld {
	t.Helper()
	w := &elicitWorld{t: t, dir: t.TempDir(), set: settings.Defaults()}
	w.set.AutoEffects = gate.AutoOf(gate.Of(gate.Read))
	w.home = t.TempDir()
	env := map[string]string{"HOME": w.home}
	paths := settings.Locate(env, []string{w.dir})
	host := &Headless{RootDir: w.dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS),
		Current: func() settings.Settings { w.mu.Lock(); defer w.mu.Unlock(); return w.set }}
	if terminal {
		host.Client = func(ctx context.Context, q gate.Question) gate.Answer {
			w.mu.Lock()
			f := w.terminal
			w.mu.Unlock()
			return f(ctx, q)
		}
	}
	s, err := Open(Options{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	w.sess = s
	opts := &mcp.ClientOptions{}
	if elicits {
		opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			w.mu.Lock()
			w.asked = append(w.asked, req.Params)
			f := w.answer
			w.mu.Unlock()
			return f(ctx, req.Params)
		}
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "elicit-test", Version: "1"}, opts)
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			w.mu.Lock()
			w.methods = append(w.methods, method)
			w.mu.Unlock()
			return next(ctx, method, req)
		}
	})
	// Server-initiated elicitation/create is the protocol up to
	// 2025-11-25, which every client that elicits speaks today; on
	// 2026-07-28 it would be an input request of the call (SEP-2322).
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	// initialized reaches the server after Connect returns: wait for it.
	for i := 0; elicits && elicitorOf(s.ID) == nil && i < 500; i++ {
		time.Sleep(2 * time.Millisecond)
	}
	t.Cleanup(func() { cs.Close(); ss.Close(); s.dropClient(); s.Close() })
	w.cs = cs
	return w
}

func (w *elicitWorld) reply(f func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)) {
	w.mu.Lock()
	w.answer = f
	w.mu.Unlock()
}

func (w *elicitWorld) bash(script string) (string, bool) {
	w.t.Helper()
	res, err := w.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"script": script}})
	if err != nil {
		w.t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func (w *elicitWorld) exists(name string) bool {
	_, err := os.Stat(filepath.Join(w.dir, name))
	return err == nil
}

func accept(v any) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{ElicitField: v}}, nil
	}
}

func action(a string) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: a}, nil
	}
}

// allow runs the step; the form is one enum whose first value denies, and
// the message shows the step, its effects and why it asks.
func TestElicitAllowRuns(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.reply(accept(ElicitAllow))
	text, isErr := w.bash("echo hi > a.txt")
	if isErr || !w.exists("a.txt") {
		t.Fatalf("allowed step: %v %q", isErr, text)
	}
	if len(w.asked) != 1 {
		t.Fatalf("asked %d times", len(w.asked))
	}
	p := w.asked[0]
	if !strings.Contains(p.Message, "echo hi > a.txt") || !strings.Contains(p.Message, "write") ||
		!strings.Contains(p.Message, "write is not in shell.autoEffects") || !strings.Contains(p.Message, "step 1") {
		t.Fatalf("message %q", p.Message)
	}
	enum := enumOf(t, p)
	if len(enum) != 3 || enum[0] != ElicitDeny || enum[1] != ElicitAllow || enum[2] != ElicitAllowSession {
		t.Fatalf("enum %v", enum)
	}
}

// decline, cancel, deny, an error, a malformed answer and no content all
// deny: the step does not run and the model is told the user denied it.
func TestElicitEverythingButAllowDenies(t *testing.T) {
	w := newElicitWorld(t, true, false)
	for name, f := range map[string]func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error){
		"deny":      accept(ElicitDeny),
		"decline":   action("decline"),
		"cancel":    action("cancel"),
		"malformed": accept("yes"),
		"a number":  accept(1),
		"empty":     action("accept"),
		"error": func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return nil, errors.New("the window broke")
		},
	} {
		w.reply(f)
		text, isErr := w.bash("echo hi > " + strings.ReplaceAll(name, " ", "_") + ".txt")
		if !isErr || w.exists(name+".txt") || !strings.Contains(text, "the user denied it") {
			t.Fatalf("%s: %v %q", name, isErr, text)
		}
	}
}

// No answer within the approval timeout: unanswered (a denial), and the
// refusal points at the client's window and at eukhe approvals.
func TestElicitTimeoutIsUnanswered(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.mu.Lock()
	w.set.ApprovalTimeout = 200 * time.Millisecond
	w.mu.Unlock()
	cancelled := make(chan struct{})
	w.reply(func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	text, isErr := w.bash("echo hi > a.txt")
	if !isErr || w.exists("a.txt") || !strings.Contains(text, "no one answered") ||
		!strings.Contains(text, "your client's window") || !strings.Contains(text, "`eukhe approvals` in a terminal in "+w.dir) {
		t.Fatalf("timeout: %v %q", isErr, text)
	}
	select {
	case <-cancelled: // the request was cancelled (notifications/cancelled)
	case <-time.After(5 * time.Second):
		t.Fatal("the timed-out elicitation was not cancelled")
	}
}

// allow for this session runs this exact step again unasked; it is never
// offered for a secret or protected step.
func TestElicitAllowForTheSession(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.reply(accept(ElicitAllowSession))
	for i := 0; i < 2; i++ {
		if text, isErr := w.bash("echo hi >> a.txt"); isErr {
			t.Fatalf("run %d: %q", i, text)
		}
	}
	if len(w.asked) != 1 {
		t.Fatalf("asked %d times, want once", len(w.asked))
	}
	w.reply(accept(ElicitAllowSession)) // not offered: the client's own check refuses it
	text, isErr := w.bash("echo x > .git/config")
	if !isErr || !strings.Contains(text, "denied") {
		t.Fatalf("protected step allowed for the session: %q", text)
	}
	enum := enumOf(t, w.asked[1])
	if len(enum) != 2 || enum[0] != ElicitDeny {
		t.Fatalf("protected step offers %v", enum)
	}
}

// approval.elicitation false never sends one; the refusal says how to
// turn it on.
func TestElicitSettingOff(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.mu.Lock()
	w.set.Elicitation = false
	w.mu.Unlock()
	w.reply(accept(ElicitAllow))
	text, isErr := w.bash("echo hi > a.txt")
	if !isErr || len(w.asked) != 0 || !strings.Contains(text, "approval.elicitation") {
		t.Fatalf("setting off: asked %d, %q", len(w.asked), text)
	}
}

// A client without the capability is never sent one.
func TestElicitNeverSentWithoutTheCapability(t *testing.T) {
	w := newElicitWorld(t, false, false)
	text, isErr := w.bash("echo hi > a.txt")
	if !isErr || !strings.Contains(text, "no one answered") || !strings.Contains(text, "does not support elicitation") {
		t.Fatalf("no capability: %q", text)
	}
	for _, m := range w.methods {
		if m == "elicitation/create" {
			t.Fatal("an elicitation went to a client that did not declare it")
		}
	}
}

// The terminal answers first: the elicitation request is cancelled.
func TestElicitLosesToTheTerminal(t *testing.T) {
	w := newElicitWorld(t, true, true)
	started, cancelled := make(chan struct{}), make(chan struct{})
	w.reply(func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	w.terminal = func(ctx context.Context, q gate.Question) gate.Answer {
		<-started
		return gate.Approve
	}
	if text, isErr := w.bash("echo hi > a.txt"); isErr || !w.exists("a.txt") {
		t.Fatalf("terminal's allow: %q", text)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the losing elicitation was not cancelled")
	}
}

// The elicitation answers first: the terminal's question ends.
func TestElicitWinsOverTheTerminal(t *testing.T) {
	w := newElicitWorld(t, true, true)
	dropped := make(chan struct{})
	w.reply(accept(ElicitDeny))
	w.terminal = func(ctx context.Context, q gate.Question) gate.Answer {
		<-ctx.Done()
		close(dropped)
		return gate.Unanswered
	}
	if text, isErr := w.bash("echo hi > a.txt"); !isErr || w.exists("a.txt") || !strings.Contains(text, "denied") {
		t.Fatalf("client's deny: %q", text)
	}
	select {
	case <-dropped:
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal's question was not settled")
	}
}

// The message names a subagent and escapes what a window would hide.
func TestElicitMessageNamesTheSubagentAndEscapes(t *testing.T) {
	q := gate.Question{Session: "s1", Agent: "helper\u202e", What: "echo $'\\u202e' > x\u200b", Effects: gate.Of(gate.Write, gate.Outside), Step: 2, Cwd: "/w"}
	m := ElicitMessage(q, gate.AutoOf(gate.Of(gate.Read)))
	for _, want := range []string{"eukhe: run step 2? Effects: write+outside.\n", "subagent $'helper\\u202e' (session s1) in /w", "x$'\\u200b'", "write and outside are not in shell.autoEffects"} {
		if !strings.Contains(m, want) {
			t.Fatalf("message %q lacks %q", m, want)
		}
	}
	if strings.ContainsRune(m, '\u202e') || strings.ContainsRune(m, '\u200b') {
		t.Fatalf("message %q holds an invisible character", m)
	}
	if m := ElicitMessage(gate.Question{What: "read /home/u/.ssh/id", Effects: gate.Of(gate.Read, gate.Secret)}, gate.DefaultAuto()); !strings.Contains(m, "secret, which always asks") {
		t.Fatalf("secret message %q", m)
	}
}

// enumOf is the form's enum as the client got it.
func enumOf(t *testing.T, p *mcp.ElicitParams) []any {
	t.Helper()
	b, _ := json.Marshal(p.RequestedSchema)
	var schema struct {
		Properties map[string]struct {
			Enum    []any
			Default any
		}
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	f := schema.Properties[ElicitField]
	if f.Default != ElicitDeny {
		t.Fatalf("default %v, want deny", f.Default)
	}
	return f.Enum
}

// A document access asks the client too: a secret read runs on allow
// (G5: an interactive client may allow a secret), never "for the session".
func TestElicitADocumentAccess(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.reply(accept(ElicitAllow))
	secret := filepath.Join(w.home, ".ssh", "id_ed25519")
	os.MkdirAll(filepath.Dir(secret), 0o700)
	os.WriteFile(secret, []byte("KEY\n"), 0o600)
	res, err := w.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": secret}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, "1:KEY") {
		t.Fatalf("allowed secret read: %s", text)
	}
	p := w.asked[0]
	if !strings.Contains(p.Message, "allow this access? Effects: read+secret.") || !strings.Contains(p.Message, "read "+gate.Visible(secret)) ||
		!strings.Contains(p.Message, "secret, which always asks") {
		t.Fatalf("message %q", p.Message)
	}
	if enum := enumOf(t, p); len(enum) != 2 {
		t.Fatalf("a secret offers %v", enum)
	}
}

// A subagent's question reaches its parent's client (G5), which names
// the subagent.
func TestElicitASubagentAsksThroughItsParentsClient(t *testing.T) {
	w := newElicitWorld(t, true, false)
	w.reply(accept(ElicitAllow))
	child, err := Open(Options{Host: w.sess.host, ID: "helper-1", Parent: w.sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()
	cs := connect(t, child) // the subagent's own client does not elicit
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"script": "echo sub > sub.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !w.exists("sub.txt") {
		t.Fatalf("the subagent's step allowed in the parent's client: %s", text)
	}
	if len(w.asked) != 1 || !strings.Contains(w.asked[0].Message, "Asked by subagent helper-1 (session helper-1)") {
		t.Fatalf("asked %d: %v", len(w.asked), w.asked)
	}
}

// A raw client that declares elicitation and answers off the form: the
// server's own check of the content against the form denies, whatever the
// client's SDK did not check.
func TestElicitOffTheFormDeniesOnTheServer(t *testing.T) {
	w := newElicitWorld(t, false, false) // the go client is not used
	r := rawConnect(t, w.sess)
	r.rpc(0, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 0; elicitorOf(w.sess.ID) == nil && i < 500; i++ {
		time.Sleep(2 * time.Millisecond)
	}
	for n, content := range []string{
		`{"answer":"ALLOW"}`,
		`{"answer":"allow for this session"}`, // not offered for a protected step
		`{"answer":["allow"]}`,
		`{"answer":"allow","other":1}`,
	} {
		id := 100 + n
		r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bash","arguments":{"script":"echo x > .git/config%d"}}}`, id, n))
		for {
			m := r.recv()
			if method, _ := m.Get("method"); method == "elicitation/create" {
				reqID, _ := m.Get("id")
				r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"action":"accept","content":%s}}`, reqID, content))
				continue
			}
			if got, ok := m.Get("id"); ok && fmt.Sprint(got) == fmt.Sprint(id) {
				text := fmt.Sprint(path(m, "result", "content"))
				if !strings.Contains(text, "denied") && content != `{"answer":"allow","other":1}` {
					t.Fatalf("%s: %s", content, text)
				}
				break
			}
		}
	}
	if _, err := os.Stat(filepath.Join(w.dir, ".git", "config0")); err == nil {
		t.Fatal("a step ran on an answer off the form")
	}
}

// A cell's question says it is a cell, with every line of its code.
func TestElicitMessageOfACell(t *testing.T) {
	q := gate.Question{Session: "s1", What: "import os\nos.system('make')", Effects: gate.Of(gate.Exec), Cwd: "/w", Cell: true}
	m := ElicitMessage(q, gate.AutoOf(gate.Of(gate.Read)))
	for _, want := range []string{"eukhe: run this ipython cell? Effects: exec.\n", "    import os\n    os.system('make')\n"} {
		if !strings.Contains(m, want) {
			t.Fatalf("message %q lacks %q", m, want)
		}
	}
}
