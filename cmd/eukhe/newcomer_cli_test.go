package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
)

// What a newcomer meets first on the command line: the version, options
// spelled as Go's flag package spells them, usage errors, dyn from the
// shell, and where the settings in force come from.

// homeEnv is a scratch home with no settings file.
func homeEnv(t *testing.T) (home string, env []string) {
	home = t.TempDir()
	return home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
}

func runIn(t *testing.T, dir string, env []string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = dir, env
	return ranOf(t, cmd)
}

func TestCLI_version_is_the_one_MCP_and_LSP_report(t *testing.T) {
	var first string
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		r := eukhe(t, "", args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "eukhe ") || r.stderr != "" {
			t.Fatalf("eukhe %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if first == "" {
			first = r.stdout
		} else if r.stdout != first {
			t.Errorf("eukhe %v says %q, eukhe version says %q", args, r.stdout, first)
		}
	}
	version := strings.TrimSpace(strings.TrimPrefix(first, "eukhe "))

	_, env := homeEnv(t)
	init := mcpInitialize(t, env, t.TempDir())
	var mcpInit struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(init, &mcpInit); err != nil || mcpInit.ServerInfo.Version != version {
		t.Errorf("MCP serverInfo %s, want version %q", init, version)
	}

	cmd := exec.Command(binary, "lsp", "--root", t.TempDir())
	cmd.Env = env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{out, in}))
	conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var lspInit struct {
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if _, err := conn.Call(ctx, lsproto.MethodInitialize, map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &lspInit); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if lspInit.ServerInfo.Version != version {
		t.Errorf("LSP serverInfo.version %q, want %q", lspInit.ServerInfo.Version, version)
	}
}

// mcpInitialize is eukhe mcp's answer to initialize.
func mcpInitialize(t *testing.T, env []string, dir string) json.RawMessage {
	t.Helper()
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("eukhe mcp: %v", err)
	}
	var m struct{ Result json.RawMessage }
	if err := json.Unmarshal([]byte(strings.SplitN(string(out), "\n", 2)[0]), &m); err != nil {
		t.Fatalf("eukhe mcp answered %q", out)
	}
	return m.Result
}

func TestCLI_options_take_one_dash_or_two(t *testing.T) {
	w := newWS(t)
	w.put("a.txt", []byte("alpha\n"), 0o644)
	for _, root := range [][]string{{"--root", w.root}, {"-root", w.root}, {"-root=" + w.root}, {"--root=" + w.root}} {
		args := append(append([]string{"tool", "read"}, root...), `{"path": "a.txt"}`)
		if r := eukhe(t, "", args...); r.code != 0 || !strings.Contains(r.stdout, "1:alpha") {
			t.Errorf("eukhe %q: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := eukhe(t, "", "check", "-json", "-cwd", w.root, "ls"); r.code != 0 || !strings.HasPrefix(r.stdout, `{"grammar":true`) {
		t.Errorf("eukhe check -json -cwd: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := eukhe(t, "", "tool", "read", "-bogus", w.root); r.code != 2 || !strings.Contains(r.stderr, "unknown option -bogus") {
		t.Errorf("eukhe tool read -bogus: exit %d\n%s", r.code, r.stderr)
	}
	if r := eukhe(t, "", "-help"); r.code != 0 || !strings.Contains(r.stdout, "one dash or two") {
		t.Errorf("eukhe -help: exit %d\n%s", r.code, r.stdout)
	}
}

func TestCLI_tool_without_arguments_is_a_usage_error(t *testing.T) {
	r := eukhe(t, "", "tool")
	if r.code != 2 || !strings.Contains(r.stderr, "which tool? read, edit, write, grep, glob, bash, ipython or dyn") || r.stdout != "" {
		t.Errorf("eukhe tool: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

func TestCLI_tool_dyn_lists_and_runs(t *testing.T) {
	home, env := homeEnv(t)
	root := t.TempDir()
	r := runIn(t, root, env, "tool", "dyn")
	if r.code != 0 || !strings.Contains(r.stdout, "report_issue") {
		t.Fatalf("eukhe tool dyn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runIn(t, root, env, "tool", "dyn", `{"name": "report_issue", "arguments": {"tool": "read", "description": "cut a line"}}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Reported") {
		t.Fatalf("eukhe tool dyn report_issue: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	logs, _ := filepath.Glob(filepath.Join(home, ".local", "state", "eukhe", "sessions", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("report_issue left %d session logs, want 1", len(logs))
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "cut a line") {
		t.Errorf("the session log does not hold the report:\n%s", b)
	}
	r = runIn(t, root, env, "tool", "dyn", `{"name": "mcp/none/x"}`)
	if r.code != 1 || !strings.Contains(r.stdout, "mcp/none/x did not run") {
		t.Errorf("dyn on a server not configured: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runIn(t, root, env, "tool", "dyn", `{"name": 5}`)
	if r.code != 2 || !strings.Contains(r.stderr, `"name" must be a string`) {
		t.Errorf("dyn with a number for a name: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestCLI_settings_shows_each_key_and_its_file(t *testing.T) {
	home, env := homeEnv(t)
	root := t.TempDir()
	r := runIn(t, root, env, "settings")
	if r.code != 0 {
		t.Fatalf("eukhe settings: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		`shell.autoEffects            ["read","write","exec","net","outside","protected"]  (default)`,
		`approval.timeoutSeconds      120  (default)`,
		filepath.Join(home, ".config", "eukhe", "settings.json") + " (user file): not present",
		filepath.Join(root, ".eukhe", "settings.json") + " (project file): not present",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("eukhe settings does not say %q:\n%s", want, r.stdout)
		}
	}

	user := filepath.Join(home, ".config", "eukhe", "settings.json")
	project := filepath.Join(root, ".eukhe", "settings.json")
	for name, text := range map[string]string{
		user:    `{"shell.autoEffects": ["read", "write"], "grep.excludes": ["vendor/**"], "review.style": "off"}`,
		project: `{"shell.autoEffects": ["read", "write", "exec", "net"], "review.style": "inline", "grep.excludes": ["*.min.js"]}`,
	} {
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r = runIn(t, root, env, "-root", root, "settings")
	if r.code != 2 {
		t.Errorf("an option before the command is a usage error: exit %d", r.code)
	}
	r = runIn(t, t.TempDir(), env, "settings", "-root", root)
	for _, want := range []string{
		`shell.autoEffects            ["read","write"]  (` + user + `)`,
		`review.style                 "inline"  (` + project + `)`,
		`grep.excludes                ["vendor/**","*.min.js"]  (` + user + ` + ` + project + `)`,
		user + " (user file): in force",
		project + " (project file): in force",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("eukhe settings does not say %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "shell.autoEffects is an execution gate, which a project file cannot set") {
		t.Errorf("the ignored project gate is not reported:\n%s", r.stderr)
	}

	if err := os.WriteFile(user, []byte(`{"shell.autoEffects": ["read", "secret"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runIn(t, root, env, "settings")
	if !strings.Contains(r.stdout, user+" (user file): broken: ") || !strings.Contains(r.stdout, `shell.autoEffects            ["read","write","exec","net","outside","protected"]  (default)`) {
		t.Errorf("a broken user file:\n%s", r.stdout)
	}
}

func TestCLI_check_ends_with_the_auto_set_and_its_source(t *testing.T) {
	w := newCheckWorld(t)
	r := w.check("", "git push")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if last := lines[len(lines)-1]; last != "auto set: read, write, exec, net, outside, protected (the default: no settings file sets shell.autoEffects; see eukhe settings)" {
		t.Errorf("last line %q\n%s", last, r.stdout)
	}
	w.settings(`{"shell.autoEffects": ["read"]}`)
	r = w.check("", "git push")
	lines = strings.Split(strings.TrimSpace(r.stdout), "\n")
	user := filepath.Join(w.home, ".config", "eukhe", "settings.json")
	if last := lines[len(lines)-1]; last != "auto set: read (shell.autoEffects in "+user+")" {
		t.Errorf("last line %q\n%s", last, r.stdout)
	}
	w.settings(`{"shell.autoEffects": []}`)
	r = w.check("", "ls")
	if !strings.HasSuffix(r.stdout, "auto set: none (every step asks) (shell.autoEffects in "+user+")\n") {
		t.Errorf("an empty auto set:\n%s", r.stdout)
	}
	// --json stays one JSON document.
	r = w.check("", "--json", "ls")
	var v any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Errorf("check --json is not one JSON document: %v\n%s", err, r.stdout)
	}
}

func TestCLI_binary_files_are_binary_raw_or_not(t *testing.T) {
	w := newWS(t)
	// An executable's start: not UTF-8 and with NUL bytes.
	w.put("a.out", []byte("\x7fELF\x02\x01\x01\x00\x00\xff\xfe\x00text"), 0o755)
	for _, raw := range []bool{false, true} {
		r := w.tool("read", map[string]any{"path": "a.out", "raw": raw})
		if r.code != 1 || !strings.Contains(r.stdout, "a.out is a binary file") || strings.Contains(r.stdout, "iconv") ||
			strings.ContainsRune(r.stdout, 0) || !strings.Contains(r.stdout, "7f 45 4c 46") {
			t.Errorf("read raw=%v: exit %d\n%q", raw, r.code, r.stdout)
		}
	}
	// grep counts it the same way.
	r := w.tool("grep", map[string]any{"pattern": "text", "path": "."})
	if !strings.Contains(r.stdout, "1 binary file not searched") {
		t.Errorf("grep over a binary file:\n%s", r.stdout)
	}
}

func TestMCP_argument_errors_and_counts_in_the_users_terms(t *testing.T) {
	_, env := homeEnv(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "one.txt"), []byte("needle\n"), 0o644)
	p := startMCP(t, env, root)
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"read", map[string]any{"path": 5}, `read: "path" must be a string, not a number`},
		{"read", map[string]any{"path": "one.txt", "raw": "yes"}, `read: "raw" must be true or false, not a string`},
		{"grep", map[string]any{"pattern": "x", "context": 1.5}, `grep: "context" must be a whole number of at least 0, not 1.5`},
		{"read", map[string]any{"file": "one.txt"}, `read has no argument "file"; it takes "i", "path", "raw"`},
	} {
		text, isErr := p.call(c.tool, c.args)
		if !isErr || text != c.want {
			t.Errorf("%s %v: %v %q, want %q", c.tool, c.args, isErr, text, c.want)
		}
		if strings.Contains(text, "unmarshal") || strings.Contains(text, "Go struct") {
			t.Errorf("Go's decoder text reached the agent: %q", text)
		}
	}
	text, _ := p.call("grep", map[string]any{"pattern": "needle"})
	if !strings.Contains(text, "[1 match in 1 file; 1 file searched under .]") {
		t.Errorf("grep counts:\n%s", text)
	}
	text, _ = p.call("read", map[string]any{"path": "."})
	if !strings.Contains(text, "directory: 1 entry]") {
		t.Errorf("read of a directory:\n%s", text)
	}
}

// A one-shot `eukhe tool` call keeps no transcript: no later call could
// read it back (memory:// is the session's own, and the session ends with
// the call), and a script's thousands of calls would leave thousands of
// directories. memory:// says so.
func TestCLI_tool_keeps_no_transcript(t *testing.T) {
	home, env := homeEnv(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644)
	for range 3 {
		if r := runIn(t, root, env, "tool", "read", `{"path": "a.txt"}`); r.code != 0 {
			t.Fatalf("eukhe tool read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	r := runIn(t, root, env, "tool", "read", `{"path": "memory://"}`)
	if r.code != 1 || !strings.Contains(r.stdout, "keeps no transcript (a one-shot eukhe tool call") {
		t.Errorf("eukhe tool read memory://: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sessions := filepath.Join(home, ".local", "state", "eukhe", "sessions")
	des, _ := os.ReadDir(sessions)
	for _, de := range des {
		if de.IsDir() {
			t.Errorf("eukhe tool left a transcript directory %s", de.Name())
		}
	}
}
