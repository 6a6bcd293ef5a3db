package agent

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServerSendsTheRosterWithoutListChanged(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	init := r.initialize()
	if lc := path(init, "result", "capabilities", "tools", "listChanged"); lc != nil && lc != false {
		t.Fatalf("listChanged %v", lc)
	}
	res := r.rpc(1, "tools/list", "")
	for i, tool := range path(res, "result", "tools").([]any) {
		schema := path(tool, "inputSchema").(Object)
		if path(tool, "name") != rosterNames[i] {
			t.Fatalf("tool %d is %v", i, path(tool, "name"))
		}
		if schema.Keys()[0] != "type" || path(schema, "title") != "v1" || Params(schema)[0] != "i" {
			t.Fatalf("%v: schema %v", rosterNames[i], schema)
		}
	}
}

func TestReadEditWriteGrepGlobRoundTrip(t *testing.T) {
	w := newWorld(t)
	w.put("src/a.go", "package a\n\nfunc A() {}\n")
	text, isErr := w.call("read", map[string]any{"i": "look", "path": "src/a.go"})
	if isErr || !strings.HasPrefix(text, "[src/a.go#") || !strings.Contains(text, "3:func A() {}") {
		t.Fatalf("read: %v %q", isErr, text)
	}
	patch := "[src/a.go#" + tagOf(t, text) + "]\n@@ 3\n+func A() int { return 1 }\n"
	text, isErr = w.call("edit", map[string]any{"patch": patch})
	if isErr || !strings.HasPrefix(text, "Applied to src/a.go#") {
		t.Fatalf("edit: %v %q", isErr, text)
	}
	if got := w.get("src/a.go"); got != "package a\n\nfunc A() int { return 1 }\n" {
		t.Fatalf("file %q", got)
	}
	text, isErr = w.call("grep", map[string]any{"pattern": `return \d`})
	if isErr || !strings.Contains(text, "3:func A() int { return 1 }") {
		t.Fatalf("grep: %v %q", isErr, text)
	}
	text, isErr = w.call("write", map[string]any{"path": "src/b.go", "content": "package a\n"})
	if isErr || w.get("src/b.go") != "package a\n" {
		t.Fatalf("write: %v %q", isErr, text)
	}
	text, isErr = w.call("glob", map[string]any{"pattern": "*.go"})
	if isErr || !strings.Contains(text, "src/a.go") || !strings.Contains(text, "src/b.go") {
		t.Fatalf("glob: %v %q", isErr, text)
	}
	// a refusal sets isError
	w.put("src/c.go", "unseen\n")
	text, isErr = w.call("write", map[string]any{"path": "src/c.go", "content": "x"})
	if !isErr {
		t.Fatalf("write over an unseen version: %q", text)
	}
}

func TestBadArgumentsSayWhatWasWrong(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"read", map[string]any{"path": 5}, `read: "path" must be a string, not a number`},
		{"read", map[string]any{"path": "x", "nope": 1}, `read has no argument "nope"; it takes "i", "path", "raw"`},
		{"grep", map[string]any{"pattern": "x", "context": "2"}, `grep: "context" must be a whole number of at least 0, not a string`},
		{"edit", json.RawMessage(`"a patch"`), `edit takes a JSON object of arguments ("i", "patch"), not a string`},
		{"dyn", map[string]any{"name": "report_issue", "arguments": []int{1}}, `dyn: "arguments" must be an object, not an array`},
		{"dyn", map[string]any{"name": "nothing"}, `dyn has no tool "nothing" now`},
		{"glob", map[string]any{"pattern": "repo://x"}, "takes no URL"},
		{"read", map[string]any{"path": strings.Repeat("x", 70<<10)}, "over this tool's limit"},
		{"bash", map[string]any{"script": "ls", "job": "j1"}, "bash takes one of"},
		{"bash", map[string]any{"timeout": 3}, "bash takes one of"},
		{"bash", map[string]any{"script": 7}, `bash: "script" must be a string, not a number`},
	} {
		text, isErr := w.call(c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %v %q, want %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	// the session is still up
	if _, isErr := w.call("read", map[string]any{"path": "."}); isErr {
		t.Fatal("the session did not survive bad input")
	}
}

func TestUnknownToolIsAJSONRPCError(t *testing.T) {
	w := newWorld(t)
	_, err := w.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Fatalf("err %v", err)
	}
}

func TestReportIssueIsStoredAndOnlyAcknowledged(t *testing.T) {
	w := newWorld(t)
	text, isErr := w.call("dyn", map[string]any{"name": "report_issue",
		"arguments": map[string]any{"tool": "grep", "description": "context 2 showed 3 lines"}})
	if isErr || text != ReportAck {
		t.Fatalf("report_issue answered %v %q", isErr, text)
	}
	f, err := os.Open(filepath.Join(w.dir, ".state", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		t.Fatal("no row in the session log")
	}
	var is Issue
	if err := json.Unmarshal(sc.Bytes(), &is); err != nil {
		t.Fatal(err)
	}
	if is.Type != "eukhe.tool_issue" || !is.Display || is.Tool != "grep" || is.Session != w.sess.ID {
		t.Fatalf("row %+v", is)
	}
	if len(w.issues) != 1 || w.issues[0].Description != "context 2 showed 3 lines" {
		t.Fatalf("the host saw %+v", w.issues)
	}
	text, isErr = w.call("dyn", map[string]any{"name": "report_issue", "arguments": map[string]any{"tool": "grep"}})
	if !isErr || !strings.Contains(text, "description") {
		t.Fatalf("a report without a description: %v %q", isErr, text)
	}
}

func TestDynListsReportIssueAndJoinedTools(t *testing.T) {
	w := newWorld(t)
	text, isErr := w.call("dyn", map[string]any{})
	if isErr || !strings.Contains(text, "report_issue: Report a tool") || !strings.Contains(text, `"required":["tool","description"]`) {
		t.Fatalf("dyn list: %v %q", isErr, text)
	}
}

func TestSessionLogPath(t *testing.T) {
	h, s := t.TempDir(), t.TempDir() // absolute paths on each system
	got := SessionLogPath(map[string]string{"HOME": h}, "abc")
	if got != filepath.Join(h, ".local", "state", "eukhe", "sessions", "abc.jsonl") {
		t.Fatal(got)
	}
	got = SessionLogPath(map[string]string{"HOME": h, "XDG_STATE_HOME": s}, "abc")
	if got != filepath.Join(s, "eukhe", "sessions", "abc.jsonl") {
		t.Fatal(got)
	}
	got = SessionLogPath(map[string]string{"HOME": h, "XDG_STATE_HOME": "rel"}, "abc")
	if got != filepath.Join(h, ".local", "state", "eukhe", "sessions", "abc.jsonl") {
		t.Fatalf("a relative XDG_STATE_HOME is taken: %s", got)
	}
}

func TestParentFromInitialize(t *testing.T) {
	p := &mcp.InitializeParams{Meta: mcp.Meta{ParentMetaKey: "p1"}}
	if ParentFrom(p) != "p1" {
		t.Fatal("_meta parent not read")
	}
	p = &mcp.InitializeParams{Capabilities: &mcp.ClientCapabilities{Experimental: map[string]any{"eukhe": map[string]any{"parent": "p2"}}}}
	if ParentFrom(p) != "p2" {
		t.Fatal("experimental parent not read")
	}
}

// A client that cannot pass --parent names the parent in initialize.
func TestInitializeNamesTheParent(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.rpc(0, "initialize", `{"_meta":{"eukhe/parent":"p9"},"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.rpc(1, "ping", "")
	if ch := w.sess.Chain(); len(ch) != 2 || ch[1].Name != "p9" || w.sess.Parent != "p9" {
		t.Fatalf("chain %+v", ch)
	}
}
