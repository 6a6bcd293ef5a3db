package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// README.md as a newcomer follows it: the set-up lines are read from it,
// so these tests break when README and reality part.

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	return page(t, "README.md")
}

// page is a page of the repository by its path from the root
// (README.md, guide/security.md).
func page(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text of a "## title" section of md.
func section(t *testing.T, md, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(md, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("the page has no section %q", title)
	}
	body, _, _ := strings.Cut(rest, "\n## ")
	return body
}

var fence = regexp.MustCompile("(?s)```(\\w*)\n(.*?)```")

// blocks are the code blocks of md in the language lang.
func blocks(md, lang string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(md, -1) {
		if m[1] == lang {
			out = append(out, m[2])
		}
	}
	return out
}

// setupLines are the commands of "The two commands": exactly two, the
// headless MCP server and the test command.
func setupLines(t *testing.T) (serve, test []string) {
	t.Helper()
	var lines []string
	for _, b := range blocks(section(t, readme(t), "The two commands"), "sh") {
		lines = append(lines, strings.Split(strings.TrimSpace(b), "\n")...)
	}
	if len(lines) != 2 {
		t.Fatalf("README's set-up is %d commands, want 2: %q", len(lines), lines)
	}
	return strings.Fields(lines[0]), strings.Fields(lines[1])
}

// README is a short page (about 120 lines: what eukhe is, install,
// connect an agent and an editor, what asks you; the rest is in guide/),
// its two set-up commands near the top, and its test command is the one
// CI runs: the last command of .ci/run.
func TestREADME_is_short_and_starts_with_the_two_commands(t *testing.T) {
	md := readme(t)
	if n := strings.Count(md, "\n"); n > 125 {
		t.Errorf("README is %d lines; keep it to about 120 and move detail to guide/", n)
	}
	if i := strings.Index(md, "\n## The two commands\n"); i < 0 || strings.Count(md[:i], "\n") > 30 {
		t.Errorf("README's set-up commands are not near the top (the section starts after line 30, or is missing)")
	}
	_, test := setupLines(t)
	ci := page(t, ".ci/run")
	last := ""
	for _, l := range strings.Split(ci, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			last = l
		}
	}
	if strings.Join(test, " ") != last {
		t.Errorf("README's test command is %q, .ci/run's last command %q: they must be the same", strings.Join(test, " "), last)
	}
}

// The fresh-clone walk: a git clone into a temp directory, a scratch
// HOME with no settings, README's two set-up lines run as written. The
// serve line runs as `go run ./cmd/eukhe ARGS` says, with the binary
// built from this same tree standing in for go run's build (the build is
// the same; the test stays fast): a short MCP session initializes, lists
// the tools and reads README.md from the clone. The test line is checked
// with make -n (the whole suite is what CI runs), its prerequisites as
// README lists them are on PATH, and the install line names go.mod's
// module.
func TestREADME_from_a_fresh_clone(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		testkit.Missing(t, "git is not installed: the fresh-clone test clones the repository")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	clone := filepath.Join(base, "eukhe")
	if out, err := exec.Command(gitBin, "clone", "--quiet", "--no-hardlinks", repo, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	home := filepath.Join(base, "home")
	os.Mkdir(home, 0o755)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	// Go's caches stay where they are: a scratch home must not mean
	// downloading every module again.
	for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
		if out, err := exec.Command("go", "env", k).Output(); err == nil && strings.TrimSpace(string(out)) != "" {
			env = append(env, k+"="+strings.TrimSpace(string(out)))
		}
	}

	serve, test := setupLines(t)
	if len(serve) < 3 || strings.Join(serve[:3], " ") != "go run ./cmd/eukhe" {
		t.Fatalf("README's first set-up line %q is not `go run ./cmd/eukhe …`; this test knows only that form", serve)
	}
	if _, err := os.Stat(filepath.Join(clone, "cmd", "eukhe", "main.go")); err != nil {
		t.Fatalf("the clone has no ./cmd/eukhe: %v", err)
	}
	cmd := exec.Command(binary, serve[3:]...)
	cmd.Dir, cmd.Env = clone, env
	mcpSession(t, cmd, "README.md")

	if strings.Join(test, " ") != "make test" {
		t.Fatalf("README's second set-up line is %q; this test knows `make test`", test)
	}
	makeBin, err := exec.LookPath("make")
	if err != nil {
		testkit.Missing(t, "make is not installed: README's test command is make test")
	}
	dry := exec.Command(makeBin, "-n", "test")
	dry.Dir, dry.Env = clone, env
	out, err := dry.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n test in the clone: %v\n%s", err, out)
	}
	for _, want := range []string{"go vet ./...", "go test", "npm ci", "test/mcp-peers", "editors/vscode"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make test does not run %q:\n%s", want, out)
		}
	}
	two := section(t, readme(t), "The two commands")
	for _, tool := range []struct{ bin, named string }{{"go", "Go 1.26"}, {"git", "git"}, {"rg", "ripgrep"}, {"nvim", "Neovim"}, {"node", "Node.js"}, {"npm", "npm"},
		{"zip", "zip"}, {"file", "file"}, {"x86_64-w64-mingw32-gcc", "mingw-w64"}} {
		if !strings.Contains(two, tool.named) {
			t.Errorf("README does not list %s next to make test", tool.named)
		}
		if _, err := exec.LookPath(tool.bin); err != nil {
			testkit.Missing(t, tool.bin+" is not installed: make test needs it (README lists "+tool.named+")")
		}
	}

	mod, err := os.ReadFile(filepath.Join(clone, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module"))
	if want := "go install " + module + "/cmd/eukhe@v"; !strings.Contains(readme(t), want) {
		t.Errorf("README does not say %q", want)
	}
}

// mcpSession drives cmd as an MCP client would: initialize, tools/list
// (the eight tools), a read of file.
func mcpSession(t *testing.T, cmd *exec.Cmd, file string) {
	t.Helper()
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &lockedWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("eukhe mcp did not end at the end of its input")
		}
	}()
	out := bufio.NewReader(outPipe)
	id := 0
	rpc := func(method string, params any) json.RawMessage {
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		in.Write(append(b, '\n'))
		for {
			line, err := out.ReadBytes('\n')
			if err == io.EOF || err != nil {
				t.Fatalf("%s: eukhe mcp ended: %v\n%s", method, err, stderr.String())
			}
			var m struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(line, &m) != nil || m.ID == nil || *m.ID != id {
				continue
			}
			if m.Error != nil {
				t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
	}
	rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "readme-test", "version": "1"}})
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	in.Write(append(b, '\n'))
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(rpc("tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{"read", "edit", "write", "grep", "glob", "bash", "ipython", "dyn"}; !slices.Equal(names, want) {
		t.Errorf("tools/list: %v, want %v", names, want)
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(rpc("tools/call", map[string]any{"name": "read", "arguments": map[string]any{"path": file + ":1"}}), &res); err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "1:# eukhe") {
		t.Errorf("read %s: %+v", file, res)
	}
}

// The effects table of "What asks you": each example has the effect its
// row says, and each counter-example lacks it, as eukhe check reads them
// in a project with a .git, under a home of its own.
func TestREADME_effect_examples_are_what_check_says(t *testing.T) {
	w := newCheckWorld(t)
	os.MkdirAll(filepath.Join(w.home, ".aws"), 0o700)
	os.WriteFile(filepath.Join(w.home, ".aws", "credentials"), []byte("x\n"), 0o600)
	table := section(t, readme(t), "What asks you")
	row := regexp.MustCompile("(?m)^\\| (\\w+) \\| [^|]+ \\| `([^`]+)` \\| `([^`]+)` \\|$")
	rows := row.FindAllStringSubmatch(table, -1)
	var seen []string
	for _, r := range rows {
		effect, has, hasNot := r[1], r[2], r[3]
		seen = append(seen, effect)
		for _, c := range []struct {
			script string
			want   bool
		}{{has, true}, {hasNot, false}} {
			res := w.check("", "--json", c.script)
			var out checkJSON
			if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
				t.Fatalf("check %q: %v\n%s%s", c.script, err, res.stdout, res.stderr)
			}
			got := false
			for _, st := range out.Steps {
				got = got || slices.Contains(st.Effects, effect)
			}
			if got != c.want {
				t.Errorf("README: %q %s %s, eukhe check says %+v", c.script, map[bool]string{true: "has", false: "does not have"}[c.want], effect, out.Steps)
			}
		}
	}
	if want := []string{"read", "write", "exec", "net", "outside", "protected", "secret"}; !slices.Equal(seen, want) {
		t.Errorf("README's effects table defines %v, want %v", seen, want)
	}
	// The default auto set README and the security page state is the
	// one in force with no file.
	security := page(t, "guide/security.md")
	r := w.check("", "ls")
	for _, doc := range []struct{ name, text string }{{"README", table}, {"guide/security.md", section(t, security, "The auto set")}} {
		if !strings.Contains(r.stdout, "auto set: read, write, exec, net, outside, protected (the default") ||
			!strings.Contains(strings.Join(strings.Fields(doc.text), " "), "read, write, exec, net, outside and protected") {
			t.Errorf("%s's default auto set and eukhe check's disagree:\n%s", doc.name, r.stdout)
		}
	}
	// The presets (in guide/security.md) are valid settings that eukhe
	// settings takes.
	presets := blocks(section(t, security, "Two presets"), "json")
	if len(presets) != 2 {
		t.Errorf("guide/security.md has %d presets, want 2 (careful and the default)", len(presets))
	}
	for _, preset := range presets {
		w.settings(preset)
		cmd := exec.Command(binary, "settings", "--root", w.root)
		cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "error") || !strings.Contains(string(out), "(user file): in force") {
			t.Errorf("the preset %s: %v\n%s", preset, err, out)
		}
	}
}

// make test's go vet ./... walks the module only: npm's package trees
// (editors/vscode/node_modules, test/mcp-peers/node_modules) are ignored
// even when a package there ships a Go file.
func TestGoPackagesLeaveNodeModulesOut(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// A Go file in a node_modules directory, as the flatted package ships one.
	modules := filepath.Join(repo, "test", "mcp-peers", "node_modules")
	dir := filepath.Join(modules, "eukhe-test-go-file")
	remove := dir
	if _, err := os.Stat(modules); err != nil {
		remove = modules // not installed: leave no node_modules behind (make test would skip npm ci)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(remove) })
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\nfunc broken( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "node_modules") {
		t.Errorf("go list ./... reaches into node_modules: %v\n%s", err, out)
	}
}
