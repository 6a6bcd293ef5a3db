package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// Agents attached to the editor's server, over ServeConn (the socket's
// connection handler) on a net.Pipe: their reads see buffers, their edits
// land in the editor, their questions become dialogs.

// agentConn is an MCP client speaking line JSON-RPC, as eukhe mcp relays it.
type agentConn struct {
	t     *testing.T
	c     net.Conn
	lines chan []byte
	id    int
}

func hello(t *testing.T, c net.Conn, h protocol.Hello) {
	t.Helper()
	b, _ := json.Marshal(h)
	if _, err := c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

// attachAgent attaches an agent on the editor's root and initializes MCP.
func attachAgent(e *fakeEditor, parent string) *agentConn {
	t := e.t.(*testing.T)
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.srv.ServeConn(ctx, a); close(done) }()
	t.Cleanup(func() { cancel(); b.Close(); <-done })
	hello(t, b, protocol.Hello{Eukhe: "attach", Root: e.root, Parent: parent})
	ac := &agentConn{t: t, c: b, lines: make(chan []byte, 64)}
	br := bufio.NewReader(b)
	if ack, err := br.ReadBytes('\n'); err != nil || !strings.Contains(string(ack), `"eukhe":"attached"`) {
		t.Fatalf("the attach hello was answered %q (%v)", ack, err)
	}
	go func() {
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				close(ac.lines)
				return
			}
			ac.lines <- line
		}
	}()
	ac.rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	ac.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return ac
}

func (a *agentConn) send(v any) {
	b, _ := json.Marshal(v)
	if _, err := a.c.Write(append(b, '\n')); err != nil {
		a.t.Fatal(err)
	}
}

// rpc sends a request and waits for its response (notifications skipped).
func (a *agentConn) rpc(method string, params any) json.RawMessage {
	a.t.Helper()
	a.id++
	a.send(map[string]any{"jsonrpc": "2.0", "id": a.id, "method": method, "params": params})
	deadline := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-a.lines:
			if !ok {
				a.t.Fatalf("%s: the server closed the session", method)
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
				a.t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		case <-deadline:
			a.t.Fatalf("%s: no answer", method)
		}
	}
}

// call runs a tool and gives its text and whether it failed.
func (a *agentConn) call(name string, args any) (string, bool) {
	a.t.Helper()
	raw := a.rpc("tools/call", map[string]any{"name": name, "arguments": args})
	var r struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		a.t.Fatalf("%s: %s", name, raw)
	}
	return r.Content[0].Text, r.IsError
}

// settingsEnv is an environment whose user settings file holds text.
func settingsEnv(t *testing.T, text string) map[string]string {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, ".state")}
	if text != "" {
		dir := filepath.Join(env["XDG_CONFIG_HOME"], "eukhe")
		os.MkdirAll(dir, 0o700)
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

// dialogs records what the editor was asked and answers as told.
type dialogs struct {
	mu       sync.Mutex
	asked    []protocol.ApproveParams
	messages []string // showMessageRequest texts
	shown    []string // window/showMessage, "type: text"
	settled  []protocol.ApprovalSettledParams
	issues   []protocol.ToolIssueParams
	ran      []protocol.RunToolParams
	// answer gives the answer to a question; "" never answers (until the
	// test ends); "!" fails the request (the client cannot ask).
	answer func(n int) string
	hold   chan struct{} // closed at the end of the test
	action *string       // the showMessageRequest answer; nil answers null
	// actions are the actions of each showMessageRequest, in order.
	actions [][]string
	// noMessages answers showMessageRequest with MethodNotFound (Helix).
	noMessages bool
	// enter answers showMessageRequest with its first action, as Enter
	// alone does in Eglot's minibuffer (it pre-fills the first).
	enter bool
}

func (d *dialogs) handle(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
	raw := req.Params()
	d.mu.Lock()
	defer d.mu.Unlock()
	switch req.Method() {
	case protocol.MethodApprove:
		var p protocol.ApproveParams
		json.Unmarshal(raw, &p)
		d.asked = append(d.asked, p)
		a := d.answer(len(d.asked))
		switch a {
		case "":
			// Release the editor's read loop, as a dialog does.
			jsonrpc2.Async(ctx)
			d.mu.Unlock()
			<-d.hold
			d.mu.Lock()
			return nil, errors.New("the test ended"), true
		case "!":
			return nil, errors.New("no dialog here"), true
		case "?":
			return nil, jsonrpc2.ErrMethodNotFound, true
		}
		b, _ := json.Marshal(protocol.ApproveResult{Answer: a})
		return jsonrpc2.RawMessage(b), nil, true
	case "window/showMessageRequest":
		var p struct {
			Message string
			Actions []struct{ Title string }
		}
		json.Unmarshal(raw, &p)
		d.messages = append(d.messages, p.Message)
		var titles []string
		for _, a := range p.Actions {
			titles = append(titles, a.Title)
		}
		d.actions = append(d.actions, titles)
		if d.noMessages {
			return nil, jsonrpc2.ErrMethodNotFound, true
		}
		if d.enter && len(titles) > 0 {
			return map[string]string{"title": titles[0]}, nil, true
		}
		if d.action == nil {
			return nil, nil, true
		}
		return map[string]string{"title": *d.action}, nil, true
	case "window/showMessage", "window/logMessage":
		var p struct {
			Type    int
			Message string
		}
		json.Unmarshal(raw, &p)
		d.shown = append(d.shown, req.Method()+" "+string(rune('0'+p.Type))+": "+p.Message)
		return nil, nil, true
	case protocol.MethodApprovalSettled:
		var p protocol.ApprovalSettledParams
		json.Unmarshal(raw, &p)
		d.settled = append(d.settled, p)
		return nil, nil, true
	case protocol.MethodToolIssue:
		var p protocol.ToolIssueParams
		json.Unmarshal(raw, &p)
		d.issues = append(d.issues, p)
		return nil, nil, true
	case protocol.MethodRunTool:
		var p protocol.RunToolParams
		json.Unmarshal(raw, &p)
		d.ran = append(d.ran, p)
		b, _ := json.Marshal(protocol.RunToolResult{Text: "ran " + p.Name + " with " + string(p.Arguments)})
		return jsonrpc2.RawMessage(b), nil, true
	}
	return nil, nil, false
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// approvingEditor is an editor that implements eukhe/approve, with the
// auto set narrowed to read so a write asks.
func approvingEditor(t *testing.T, d *dialogs, methods ...string) *fakeEditor {
	return dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"]}`),
		methods: append([]string{protocol.MethodApprove}, methods...)})
}

// dialogEditor is an editor whose dialogs d answers; a question held
// unanswered is let go before the editor quits.
func dialogEditor(t *testing.T, d *dialogs, o editorOpts) *fakeEditor {
	d.hold = make(chan struct{})
	o.handle = d.handle
	e := newEditor(t, o)
	t.Cleanup(func() { close(d.hold) })
	e.sync()
	return e
}

func TestAnAttachedAgentReadsBuffersAndItsEditLandsInTheEditor(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "on disk\n")
	e.openText("a.txt", "unsaved\n")
	ag := attachAgent(e, "")
	text, failed := ag.call("read", map[string]any{"path": "a.txt"})
	if failed || !strings.Contains(text, "1:unsaved") {
		t.Fatalf("read:\n%s", text)
	}
	tag := tagOf(t, text)
	text, failed = ag.call("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+by the agent\n"})
	if failed || !strings.HasPrefix(text, "Applied to a.txt#") {
		t.Fatalf("edit: %s", text)
	}
	if got := e.buf("a.txt"); got != "by the agent\n" {
		t.Fatalf("buffer after the edit: %q", got)
	}
}

func TestAGatedStepAsksTheEditorApproveRunsDenyStops(t *testing.T) {
	d := &dialogs{answer: func(n int) string { return map[int]string{1: "approve", 2: "deny"}[n] }}
	e := approvingEditor(t, d)
	ag := attachAgent(e, "")
	text, failed := ag.call("bash", map[string]any{"script": "echo one > out.txt"})
	if failed || e.disk("out.txt") != "one\n" {
		t.Fatalf("approved step: %v %s", failed, text)
	}
	d.mu.Lock()
	q := d.asked[0]
	d.mu.Unlock()
	if q.Text != "echo one > out.txt" || !strings.Contains(strings.Join(q.Effects, ","), "write") || q.Agent != "" || q.Step != 1 ||
		q.Cwd != e.root || strings.Join(q.Offers, ",") != "deny,approve,approve_session" || q.Session == "" {
		t.Errorf("the question: %+v", q)
	}
	text, _ = ag.call("bash", map[string]any{"script": "echo two > out.txt"})
	if e.disk("out.txt") != "one\n" || !strings.Contains(text, "the user denied it") {
		t.Fatalf("denied step ran or said:\n%s", text)
	}
}

func TestApproveSessionRemembersTheExactStepAndNeverOffersItForSecrets(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "approve_session" }}
	e := approvingEditor(t, d)
	ag := attachAgent(e, "")
	for range 2 {
		if text, failed := ag.call("bash", map[string]any{"script": "echo x >> log.txt"}); failed {
			t.Fatal(text)
		}
	}
	ag.call("bash", map[string]any{"script": "echo y >> log.txt"})
	d.mu.Lock()
	n := len(d.asked)
	d.mu.Unlock()
	if e.disk("log.txt") != "x\nx\ny\n" || n != 2 {
		t.Fatalf("log %q after %d questions; want the repeated step unasked", e.disk("log.txt"), n)
	}
	if o := offers(0); len(o) != 3 {
		t.Errorf("offers %v", o)
	}
	// A write of eukhe's own user settings (the execution gates) is
	// secret: no approve_session.
	ag.call("bash", map[string]any{"script": "echo {} > " + filepath.Join(e.opts.env["XDG_CONFIG_HOME"], "eukhe", "settings.json")})
	d.mu.Lock()
	last := d.asked[len(d.asked)-1]
	d.mu.Unlock()
	if strings.Contains(strings.Join(last.Offers, ","), "approve_session") || !strings.Contains(strings.Join(last.Effects, ","), "secret") {
		t.Errorf("a write of the user settings offered %v (effects %v)", last.Offers, last.Effects)
	}
}

func TestShowMessageRequestIsTheFallbackAndNullDenies(t *testing.T) {
	allow := actionAllow
	d := &dialogs{action: &allow}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"]}`)})
	ag := attachAgent(e, "")
	if text, failed := ag.call("bash", map[string]any{"script": "echo a > f"}); failed || e.disk("f") != "a\n" {
		t.Fatalf("Allow: %s", text)
	}
	d.mu.Lock()
	d.action = nil
	msg := d.messages[0]
	d.mu.Unlock()
	if !strings.Contains(msg, "echo a > f") || !strings.Contains(msg, "write") {
		t.Errorf("the message: %q", msg)
	}
	text, _ := ag.call("bash", map[string]any{"script": "echo b > f"})
	if e.disk("f") != "a\n" || !strings.Contains(text, "denied") {
		t.Fatalf("null answer: %s", text)
	}
}

// terminalConn is an `eukhe approvals` client on ServeConn.
type terminalConn struct {
	c    net.Conn
	msgs chan map[string]json.RawMessage
}

func attachTerminal(t *testing.T, e *fakeEditor, gateway bool) *terminalConn {
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.srv.ServeConn(ctx, a); close(done) }()
	t.Cleanup(func() { cancel(); b.Close(); <-done })
	hello(t, b, protocol.Hello{Eukhe: "approvals", Gateway: gateway})
	tc := &terminalConn{c: b, msgs: make(chan map[string]json.RawMessage, 16)}
	go func() {
		br := bufio.NewReader(b)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				close(tc.msgs)
				return
			}
			var m map[string]json.RawMessage
			json.Unmarshal(line, &m)
			tc.msgs <- m
		}
	}()
	return tc
}

func (tc *terminalConn) next(t *testing.T) (string, json.RawMessage) {
	t.Helper()
	select {
	case m := <-tc.msgs:
		var method string
		json.Unmarshal(m["method"], &method)
		return method, m["params"]
	case <-time.After(60 * time.Second):
		t.Fatal("the terminal got nothing")
	}
	return "", nil
}

func TestTwoClientsRaceTheFirstAnswerWinsTheOtherIsSettled(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "" }} // the editor never answers
	e := approvingEditor(t, d, protocol.MethodApprovalSettled)
	term := attachTerminal(t, e, false)
	waitFor(t, "the terminal attached", func() bool { return e.srv.att.broker.Attached().Interactive == 2 })
	ag := attachAgent(e, "")
	done := make(chan string)
	go func() { text, _ := ag.call("bash", map[string]any{"script": "echo t > f"}); done <- text }()
	method, params := term.next(t)
	var q protocol.ApproveParams
	if json.Unmarshal(params, &q); method != protocol.MethodApprove || q.Text != "echo t > f" {
		t.Fatalf("the terminal got %s %s", method, params)
	}
	b, _ := json.Marshal(protocol.TerminalAnswer{ID: q.ID, Answer: "approve"})
	term.c.Write(append(b, '\n'))
	<-done
	if e.disk("f") != "t\n" {
		t.Fatal("the terminal's approval did not run the step")
	}
	waitFor(t, "approvalSettled to the editor", func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.settled) == 1 && d.settled[0].ID == q.ID && d.settled[0].Answer == "approve"
	})
}

func TestTheEditorLeavingEndsAQuestionUnanswered(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "" }}
	e := approvingEditor(t, d)
	ag := attachAgent(e, "")
	done := make(chan string)
	go func() { text, _ := ag.call("bash", map[string]any{"script": "echo t > f"}); done <- text }()
	waitFor(t, "the question", func() bool { d.mu.Lock(); defer d.mu.Unlock(); return len(d.asked) == 1 })
	// The editor shuts down mid-question (its connection's end does the
	// same through Serve).
	if err := e.server.Shutdown(e.ctx()); err != nil {
		t.Fatal(err)
	}
	select {
	case text := <-done:
		if !strings.Contains(text, "no one answered") || e.disk("f") != "<missing>" {
			t.Fatalf("after the editor left: %s", text)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the question still waits after the editor left")
	}
}

func TestAGatewayIsNeverAskedTheGatewayRuleAnswers(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "!" }} // the editor cannot ask
	e := approvingEditor(t, d)
	gw := attachTerminal(t, e, true)
	waitFor(t, "the gateway attached", func() bool { return e.srv.att.broker.Attached().Gateway == 1 })
	ag := attachAgent(e, "")
	if text, failed := ag.call("bash", map[string]any{"script": "echo g > f"}); failed || e.disk("f") != "g\n" {
		t.Fatalf("a write beside a gateway: %s", text)
	}
	text, _ := ag.call("bash", map[string]any{"script": "echo {} > " + filepath.Join(e.opts.env["XDG_CONFIG_HOME"], "eukhe", "settings.json")})
	if !strings.Contains(text, "phone gateway") {
		t.Fatalf("a protected write beside a gateway: %s", text)
	}
	select {
	case m := <-gw.msgs:
		t.Fatalf("the gateway got %v", m)
	default:
	}
}

func TestAQuestionNoOneAnswersInTimeIsUnanswered(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "" }}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 1}`),
		methods: []string{protocol.MethodApprove, protocol.MethodApprovalSettled}})
	e.sync()
	ag := attachAgent(e, "")
	text, _ := ag.call("bash", map[string]any{"script": "echo t > f"})
	if !strings.Contains(text, "no one answered") || e.disk("f") != "<missing>" {
		t.Fatalf("after the timeout: %s", text)
	}
	waitFor(t, "approvalSettled unanswered", func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.settled) == 1 && d.settled[0].Answer == "unanswered"
	})
}

func TestSettingsProblemsAreShownInTheEditor(t *testing.T) {
	d := &dialogs{}
	env := settingsEnv(t, `{"shell.autoEffects": ["read",]}`)
	e := dialogEditor(t, d, editorOpts{env: env})
	os.MkdirAll(e.path(".eukhe"), 0o755)
	e.sync()
	d.mu.Lock()
	shown := strings.Join(d.shown, "\n")
	d.mu.Unlock()
	user := filepath.Join(env["XDG_CONFIG_HOME"], "eukhe", "settings.json")
	if !strings.Contains(shown, "window/showMessage 1: eukhe settings "+user) {
		t.Fatalf("no error shown for the broken file:\n%s", shown)
	}
	// A project file that sets a gate: a warning; the fix of the user's
	// file: in force at once.
	e.put(".eukhe/settings.json", `{"shell.autoEffects": ["read", "write", "exec"]}`)
	os.WriteFile(user, []byte(`{"shell.autoEffects": ["read"]}`), 0o600)
	waitFor(t, "the warning and the fixed settings", func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return strings.Contains(strings.Join(d.shown, "\n"), "window/showMessage 2: eukhe settings "+e.path(".eukhe/settings.json")) &&
			len(e.srv.att.settings().AutoEffects.Effects().Names()) == 1
	})
}

func TestReportIssueReachesTheEditor(t *testing.T) {
	d := &dialogs{}
	e := dialogEditor(t, d, editorOpts{methods: []string{protocol.MethodToolIssue}})
	ag := attachAgent(e, "")
	if text, failed := ag.call("dyn", map[string]any{"name": "report_issue", "arguments": map[string]any{"tool": "grep", "description": "missed a match"}}); failed {
		t.Fatal(text)
	}
	waitFor(t, "eukhe/toolIssue", func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.issues) == 1 && d.issues[0].Tool == "grep" && d.issues[0].Description == "missed a match"
	})
}

func TestAJoinedHostToolIsReachedThroughDyn(t *testing.T) {
	d := &dialogs{}
	e := dialogEditor(t, d, editorOpts{})
	before := attachAgent(e, "")
	join := protocol.JoinToolParams{Name: "editor/diagnostics", Description: "the editor's diagnostics", InputSchema: json.RawMessage(`{"type":"object"}`)}
	var raw jsonrpc2.RawMessage
	if err := call(e.ctx(), e.conn, protocol.MethodJoinTool, join, &raw); err != nil {
		t.Fatal(err)
	}
	after := attachAgent(e, "")
	for _, ag := range []*agentConn{before, after} {
		text, failed := ag.call("dyn", map[string]any{"name": "editor/diagnostics", "arguments": map[string]any{"file": "a.go"}})
		if failed || text != `ran editor/diagnostics with {"file":"a.go"}` {
			t.Fatalf("dyn: %v %s", failed, text)
		}
	}
	if err := call(e.ctx(), e.conn, protocol.MethodJoinTool, protocol.JoinToolParams{Name: "report_issue"}, &raw); err == nil {
		t.Error("a host tool took report_issue's name")
	}
	if err := call(e.ctx(), e.conn, protocol.MethodQuitTool, protocol.QuitToolParams{Name: "editor/diagnostics"}, &raw); err != nil {
		t.Fatal(err)
	}
	if text, failed := before.call("dyn", map[string]any{"name": "editor/diagnostics"}); !failed {
		t.Fatalf("a quit tool ran: %s", text)
	}
}

func TestASubagentsQuestionReachesTheEditorNamingIt(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "approve" }}
	e := approvingEditor(t, d)
	attachAgent(e, "")
	e.srv.att.mu.Lock()
	var parent string
	for id := range e.srv.att.sessions {
		parent = id
	}
	e.srv.att.mu.Unlock()
	child := attachAgent(e, parent)
	if text, failed := child.call("bash", map[string]any{"script": "echo c > f"}); failed {
		t.Fatal(text)
	}
	d.mu.Lock()
	q := d.asked[0]
	d.mu.Unlock()
	if q.Agent == "" || q.Agent != q.Session || q.Session == parent {
		t.Fatalf("a subagent's question: %+v (parent %s)", q, parent)
	}
}
