package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// eukhe mcp driven by peers nobody here wrote: the MCP inspector's CLI as
// the client, and server-everything as a dyn server. They are npm packages
// pinned in test/mcp-peers; .ci/run installs them with npm ci.

// peers is the installed test/mcp-peers, or a skip saying how to get it.
func peers(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testkit.Missing(t, "node is not installed: the MCP peer tests need Node.js and `npm ci` in test/mcp-peers (.ci/run does both)")
	}
	dir, err = filepath.Abs(filepath.Join("..", "..", "test", "mcp-peers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{inspectorBin, everythingBin} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			testkit.Missing(t, fmt.Sprintf("the MCP peers are not installed (%s): run `npm ci` in test/mcp-peers (make test and .ci/run do)", p))
		}
	}
	return node, dir
}

const (
	inspectorBin  = "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
	everythingBin = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
)

// peerWorld is a workspace, a user config dir and a home for one test.
type peerWorld struct {
	t                   *testing.T
	node, peers         string
	root, config, state string
	home                string
}

func newPeerWorld(t *testing.T) *peerWorld {
	node, dir := peers(t)
	base := t.TempDir()
	w := &peerWorld{t: t, node: node, peers: dir, root: filepath.Join(base, "ws"),
		config: filepath.Join(base, "config"), state: filepath.Join(base, "state"), home: filepath.Join(base, "home")}
	for _, d := range []string{w.root, w.config, w.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *peerWorld) put(name, text string) {
	w.t.Helper()
	p := filepath.Join(w.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// settings writes the user settings file.
func (w *peerWorld) settings(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	dir := filepath.Join(w.config, "eukhe")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// inspect runs the inspector's CLI against `eukhe mcp --root ROOT` and
// decodes its JSON result.
func (w *peerWorld) inspect(args ...string) map[string]any {
	w.t.Helper()
	// the inspector passes a stdio server only a few variables of its own
	// environment; -e sets the ones eukhe reads
	all := append([]string{filepath.Join(w.peers, inspectorBin), "--cli", "--format", "json", "-q",
		"-e", "XDG_CONFIG_HOME=" + w.config, "-e", "XDG_STATE_HOME=" + w.state}, args...)
	all = append(all, "--", binary, "mcp", "--root", w.root)
	cmd := exec.Command(w.node, all...)
	cmd.Dir = w.root
	cmd.Env = append(os.Environ(), "HOME="+w.home, "XDG_CONFIG_HOME="+w.config, "XDG_STATE_HOME="+w.state,
		"MCP_CATALOG_PATH="+filepath.Join(w.home, "catalog.json"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// exit status 5: the tool answered isError, and the result is printed
	if err := cmd.Run(); err != nil && !(cmd.ProcessState.ExitCode() == 5 && out.Len() > 0) {
		w.t.Fatalf("inspector %v: %v\nstdout: %s\nstderr: %s", args, err, out.String(), errb.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		w.t.Fatalf("inspector %v printed %q: %v", args, out.String(), err)
	}
	if r, ok := v["result"].(map[string]any); ok {
		return r
	}
	return v
}

// call runs one tool and gives its text and isError.
func (w *peerWorld) call(tool string, args any) (string, bool) {
	w.t.Helper()
	b, _ := json.Marshal(args)
	r := w.inspect("--method", "tools/call", "--tool-name", tool, "--tool-args-json", string(b))
	var parts []string
	content, _ := r["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			parts = append(parts, m["text"].(string))
		}
	}
	isErr, _ := r["isError"].(bool)
	return strings.Join(parts, "\n"), isErr
}

func TestMCPInspectorListsTheSevenTools(t *testing.T) {
	w := newPeerWorld(t)
	r := w.inspect("--method", "tools/list")
	tools, _ := r["tools"].([]any)
	var names []string
	for _, tool := range tools {
		m := tool.(map[string]any)
		names = append(names, m["name"].(string))
		schema := m["inputSchema"].(map[string]any)
		if schema["title"] != "v1" {
			t.Errorf("%s: title %v, want v1", m["name"], schema["title"])
		}
		props := schema["properties"].(map[string]any)
		if _, ok := props["i"]; !ok {
			t.Errorf("%s: no i", m["name"])
		}
	}
	if strings.Join(names, " ") != "read edit write grep glob bash ipython dyn" {
		t.Fatalf("tools %v", names)
	}
}

// The order of parameters as the inspector received them: i first. (Go
// maps lose order, so this reads the inspector's JSON text.)
func TestMCPInspectorSeesIntentFirst(t *testing.T) {
	w := newPeerWorld(t)
	all := []string{filepath.Join(w.peers, inspectorBin), "--cli", "--format", "json", "-q", "--method", "tools/list",
		"--", binary, "mcp", "--root", w.root}
	cmd := exec.Command(w.node, all...)
	cmd.Env = append(os.Environ(), "HOME="+w.home, "XDG_CONFIG_HOME="+w.config, "MCP_CATALOG_PATH="+filepath.Join(w.home, "catalog.json"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	props := regexp.MustCompile(`"properties":\s*\{\s*"([^"]+)"`).FindAllStringSubmatch(string(out), -1)
	if len(props) != 8 {
		t.Fatalf("%d schemas with properties, want the 8 tools'", len(props))
	}
	for _, p := range props {
		if p[1] != "i" {
			t.Fatalf("a schema's first parameter is %q", p[1])
		}
	}
}

// read, edit, grep round trips, each call its own session (the inspector
// CLI connects once per call): a tag read in one session is unknown to
// another, so that edit is refused and nothing is written; an edit that
// creates a file lands; grep and read find it.
func TestMCPInspectorReadEditGrep(t *testing.T) {
	w := newPeerWorld(t)
	w.put("notes/a.txt", "alpha\nbeta\n")
	text, isErr := w.call("read", map[string]any{"i": "look", "path": "notes/a.txt"})
	if isErr || !strings.Contains(text, "1:alpha\n2:beta") {
		t.Fatalf("read: %v %q", isErr, text)
	}
	tag := text[strings.Index(text, "#")+1 : strings.Index(text, "]")]
	text, isErr = w.call("edit", map[string]any{"patch": "[notes/a.txt#" + tag + "]\n@@ 2\n+gamma\n"})
	if !isErr || !strings.Contains(text, "not a version of notes/a.txt that this session saw") {
		t.Fatalf("an edit of lines another session saw: %v %q", isErr, text)
	}
	if b, _ := os.ReadFile(filepath.Join(w.root, "notes/a.txt")); string(b) != "alpha\nbeta\n" {
		t.Fatalf("the refused edit wrote %q", b)
	}
	text, isErr = w.call("edit", map[string]any{"patch": "[notes/b.txt]\n+delta one\n+delta two\n"})
	if isErr || !strings.HasPrefix(text, "Applied to notes/b.txt#") {
		t.Fatalf("edit creating a file: %v %q", isErr, text)
	}
	text, isErr = w.call("grep", map[string]any{"pattern": "delta t"})
	if isErr || !strings.Contains(text, "[notes/b.txt#") || !strings.Contains(text, "2:delta two") {
		t.Fatalf("grep: %v %q", isErr, text)
	}
	text, isErr = w.call("read", map[string]any{"path": "notes/b.txt:2"})
	if isErr || !strings.Contains(text, "2:delta two") {
		t.Fatalf("read of the created file: %v %q", isErr, text)
	}
	text, isErr = w.call("dyn", map[string]any{"name": "report_issue", "arguments": map[string]any{"tool": "grep", "description": "fine, just testing"}})
	if isErr || text != "Reported; the user will see it." {
		t.Fatalf("report_issue: %v %q", isErr, text)
	}
	logs, _ := filepath.Glob(filepath.Join(w.state, "eukhe", "sessions", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("session logs %v", logs)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), `"type":"eukhe.tool_issue"`) {
		t.Fatalf("log %q", b)
	}
	text, isErr = w.call("read", map[string]any{"path": 7})
	if !isErr || !strings.Contains(text, `"path" must be a string, not a number`) {
		t.Fatalf("wrong type: %v %q", isErr, text)
	}
}

// server-everything configured in the user settings is reached through
// dyn: its tools listed, one called, one of its resources read by mcp://.
func TestMCPServerEverythingBehindDyn(t *testing.T) {
	w := newPeerWorld(t)
	w.settings(map[string]any{"mcp.servers": map[string]any{
		"everything": map[string]any{"command": w.node, "args": []string{filepath.Join(w.peers, everythingBin)}},
	}})
	text, isErr := w.call("dyn", map[string]any{})
	if isErr || !strings.Contains(text, "mcp/everything/echo: Echoes back the input string") || !strings.Contains(text, "report_issue") {
		t.Fatalf("dyn list: %v %q", isErr, text)
	}
	text, isErr = w.call("dyn", map[string]any{"name": "mcp/everything/echo", "arguments": map[string]any{"message": "hi from eukhe"}})
	if isErr || text != "Echo: hi from eukhe" {
		t.Fatalf("dyn echo: %v %q", isErr, text)
	}
	text, isErr = w.call("read", map[string]any{"path": "mcp://everything"})
	if isErr || !strings.Contains(text, "demo://resource/static/document/architecture.md") {
		t.Fatalf("read mcp://everything: %v %q", isErr, text)
	}
	text, isErr = w.call("read", map[string]any{"path": "mcp://everything/demo://resource/static/document/features.md"})
	if isErr || len(text) < 100 {
		t.Fatalf("read one resource: %v %q", isErr, text)
	}
}

// The ipython tool through the inspector's CLI: a cell reads a file with
// read(), edits it with edit(), and displays an image, which the
// inspector receives as MCP image content beside the cell's text.
func TestMCPInspectorIPythonCellAndImage(t *testing.T) {
	w := newPeerWorld(t)
	w.settings(map[string]any{"ipython.python": testkit.IPython(t)})
	w.put("a.txt", "alpha\nbeta\n")
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	code := "d = read('a.txt')\nprint(edit(f'[a.txt#{d.tag}]\\n@@ 2\\n+gamma\\n'))\n" +
		"import base64\nfrom IPython.display import Image, display\ndisplay(Image(data=base64.b64decode('" + png + "')))"
	b, _ := json.Marshal(map[string]any{"code": code})
	r := w.inspect("--method", "tools/call", "--tool-name", "ipython", "--tool-args-json", string(b))
	var text string
	var image bool
	content, _ := r["content"].([]any)
	for _, c := range content {
		m, _ := c.(map[string]any)
		switch m["type"] {
		case "text":
			text += m["text"].(string)
		case "image":
			image = m["mimeType"] == "image/png" && m["data"] == png
		}
	}
	if isErr, _ := r["isError"].(bool); isErr || !image || !strings.Contains(text, "Applied to a.txt#") || !strings.Contains(text, "[cell 1 finished]") {
		t.Fatalf("the cell: error %v, image %v, text %q; content %v", r["isError"], image, text, content)
	}
	if b, _ := os.ReadFile(filepath.Join(w.root, "a.txt")); string(b) != "alpha\ngamma\n" {
		t.Fatalf("a.txt is %q", b)
	}
}
