package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
)

// Every snippet README and the pages of guide/ give a user is parsed in
// its client's own format and its keys checked against what that client
// documents: a snippet that a client would reject, or whose keys it would
// ignore, fails here.

// The keys each client documents for the tables the snippets fill.
var (
	// Codex, config.toml: [mcp_servers.NAME] and [features].
	codexServerKeys = []string{"command", "args", "env", "env_vars", "cwd", "startup_timeout_sec", "tool_timeout_sec", "enabled", "enabled_tools", "disabled_tools", "url", "bearer_token_env_var", "http_headers"}
	codexFeatures   = []string{"shell_tool", "unified_exec", "web_search_request", "view_image_tool", "apply_patch_freeform"}
	// Helix, languages.toml: [language-server.NAME] and [[language]].
	helixServerKeys   = []string{"command", "args", "config", "environment", "timeout", "required-root-patterns"}
	helixLanguageKeys = []string{"name", "language-servers", "scope", "file-types", "roots", "injection-regex", "comment-token", "indent", "auto-format", "formatter"}
	// VS Code, mcp.json: "servers": {NAME: …}.
	vscodeServerKeys = []string{"type", "command", "args", "env", "envFile", "cwd", "url", "headers"}
	// Cursor, Claude Desktop and the rest: "mcpServers": {NAME: …}.
	mcpServersKeys = []string{"command", "args", "env", "cwd", "type", "url", "headers"}
)

// snippetPages are the pages that give a user snippets: README and
// every page of guide/.
func snippetPages(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{"README.md": readme(t)}
	guide, err := filepath.Glob(filepath.Join("..", "..", "guide", "*.md"))
	if err != nil || len(guide) == 0 {
		t.Fatalf("no guide/*.md pages: %v", err)
	}
	for _, g := range guide {
		rel := "guide/" + filepath.Base(g)
		pages[rel] = page(t, rel)
	}
	return pages
}

func TestREADME_snippets_parse_in_their_clients_formats(t *testing.T) {
	pages := snippetPages(t)
	// What each kind of snippet is, and how many the pages give of it.
	kinds := map[string]int{}
	claudeAdds, eglotForms := 0, 0
	for name, md := range pages {
		for _, b := range blocks(md, "json") {
			kinds[checkJSONSnippet(t, b)]++
		}
		for _, b := range blocks(md, "toml") {
			kinds[checkTOMLSnippet(t, b, parseTOML(t, b))]++
		}
		for _, b := range blocks(md, "sh") {
			for _, line := range strings.Split(b, "\n") {
				if f := strings.Fields(line); len(f) > 2 && f[0] == "claude" && f[1] == "mcp" && f[2] == "add" {
					checkClaudeAdd(t, f[3:])
					claudeAdds++
				}
			}
		}
		if strings.Contains(md, "MultiEdit") {
			t.Errorf("%s names MultiEdit, which Claude Code no longer has", name)
		}
		if eglotForm.MatchString(strings.ReplaceAll(md, "\n", " ")) {
			checkEglotForm(t, md)
			eglotForms++
		}
	}
	// README keeps the common ones; guide/clients.md has them all.
	for _, want := range []struct {
		kind string
		n    int
		what string
	}{
		{"settings", 2, "the two presets"}, {"vscode", 1, "VS Code's mcp.json"}, {"mcpServers", 1, "Cursor's mcp.json"},
		{"codex server", 1, "Codex's server"}, {"codex features", 1, "Codex's features"}, {"helix", 1, "Helix's languages.toml"},
	} {
		if kinds[want.kind] < want.n {
			t.Errorf("README and guide/ give %d %s snippets; want %s (%v)", kinds[want.kind], want.kind, want.what, kinds)
		}
	}
	if claudeAdds == 0 {
		t.Errorf("README and guide/ give no `claude mcp add` line")
	}
	for _, name := range []string{"README.md", "guide/clients.md"} {
		if !strings.Contains(pages[name], "~/.local/share/nvim/site/pack/eukhe/start/eukhe") {
			t.Errorf("%s does not give Neovim's packpath in full", name)
		}
	}
	if eglotForms == 0 || !eglotForm.MatchString(strings.ReplaceAll(pages["guide/clients.md"], "\n", " ")) {
		t.Errorf("guide/clients.md has no Eglot form")
	}
}

// checkJSONSnippet parses a JSON snippet and checks it as the file it is
// for: eukhe's settings, VS Code's mcp.json or an mcpServers file.
func checkJSONSnippet(t *testing.T, b string) (kind string) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b), &top); err != nil {
		t.Errorf("a JSON snippet does not parse: %v\n%s", err, b)
		return "bad"
	}
	switch {
	case top["servers"] != nil:
		kind = "vscode"
		checkServers(t, "VS Code mcp.json servers", top["servers"], vscodeServerKeys, func(s map[string]any) {
			if ty, _ := s["type"].(string); ty != "stdio" {
				t.Errorf("VS Code's mcp.json: a stdio server has \"type\": \"stdio\", not %v", s["type"])
			}
		})
	case top["mcpServers"] != nil:
		kind = "mcpServers"
		checkServers(t, "mcpServers", top["mcpServers"], mcpServersKeys, nil)
	default:
		kind = "settings"
		if _, events := settings.Parse("settings.json", []byte(b), settings.UserScope); len(events) > 0 {
			t.Errorf("a settings snippet does not parse as a user settings file: %v\n%s", events, b)
		}
	}
	return kind
}

func checkServers(t *testing.T, what string, raw json.RawMessage, keys []string, more func(map[string]any)) {
	var servers map[string]map[string]any
	if err := json.Unmarshal(raw, &servers); err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	for name, s := range servers {
		for k := range s {
			if !slices.Contains(keys, k) {
				t.Errorf("%s.%s has key %q, which the client does not document (%v)", what, name, k, keys)
			}
		}
		if args, _ := s["args"].([]any); s["command"] != "eukhe" || len(args) == 0 || args[0] != "mcp" {
			t.Errorf("%s.%s does not run eukhe mcp: %v", what, name, s)
		}
		if more != nil {
			more(s)
		}
	}
}

// parseTOML parses TOML with Python's tomllib (TOML 1.0, the standard
// library's parser) into JSON.
func parseTOML(t *testing.T, b string) map[string]any {
	py, err := exec.LookPath("python3")
	if err != nil {
		testkit.Missing(t, "python3 is not installed: the TOML snippets of README and guide/ are parsed with its tomllib")
	}
	cmd := exec.Command(py, "-c", "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))")
	cmd.Stdin = strings.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("a TOML snippet does not parse: %s\n%s", msg, b)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func checkTOMLSnippet(t *testing.T, b string, v map[string]any) (kind string) {
	tables := keysOf(v)
	switch {
	case slices.Equal(tables, []string{"mcp_servers"}):
		kind = "codex server"
		for name, s := range v["mcp_servers"].(map[string]any) {
			checkKeys(t, "Codex [mcp_servers."+name+"]", s, codexServerKeys)
		}
	case slices.Equal(tables, []string{"features"}):
		kind = "codex features"
		checkKeys(t, "Codex [features]", v["features"], codexFeatures)
		if v["features"].(map[string]any)["shell_tool"] != false {
			t.Errorf("Codex [features] does not turn shell_tool off:\n%s", b)
		}
	case slices.Equal(tables, []string{"language", "language-server"}):
		kind = "helix"
		for name, s := range v["language-server"].(map[string]any) {
			checkKeys(t, "Helix [language-server."+name+"]", s, helixServerKeys)
		}
		langs, ok := v["language"].([]any)
		if !ok || len(langs) == 0 {
			t.Errorf("Helix: [[language]] is an array of tables:\n%s", b)
		}
		for _, l := range langs {
			checkKeys(t, "Helix [[language]]", l, helixLanguageKeys)
			servers, _ := l.(map[string]any)["language-servers"].([]any)
			if l.(map[string]any)["name"] == nil || !slices.Contains(servers, any("eukhe")) {
				t.Errorf("Helix: a [[language]] names a language and lists eukhe among its language-servers:\n%s", b)
			}
		}
	default:
		kind = "unknown"
		t.Errorf("a TOML snippet of no known client (tables %v):\n%s", tables, b)
	}
	return kind
}

func checkKeys(t *testing.T, what string, v any, keys []string) {
	m, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s is not a table: %v", what, v)
		return
	}
	for k := range m {
		if !slices.Contains(keys, k) {
			t.Errorf("%s has key %q, which the client does not document (%v)", what, k, keys)
		}
	}
}

func keysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// checkClaudeAdd checks the words after `claude mcp add`: its options
// come before the server's name, and `--` before the command.
func checkClaudeAdd(t *testing.T, words []string) {
	dash := slices.Index(words, "--")
	if dash < 0 || strings.Join(words[dash+1:], " ") != "eukhe mcp" {
		t.Errorf("claude mcp add %s: want `-- eukhe mcp` after the name", strings.Join(words, " "))
		return
	}
	name := -1
	for i := 0; i < dash; i++ {
		w := words[i]
		switch {
		case w == "--scope" || w == "-s" || w == "--transport" || w == "-t" || w == "-e" || w == "--env":
			if name >= 0 {
				t.Errorf("claude mcp add %s: option %s after the name (options come first)", strings.Join(words, " "), w)
			}
			i++ // its value
		case strings.HasPrefix(w, "-"):
			if name >= 0 {
				t.Errorf("claude mcp add %s: option %s after the name (options come first)", strings.Join(words, " "), w)
			}
		default:
			if name >= 0 {
				t.Errorf("claude mcp add %s: two names", strings.Join(words, " "))
			}
			name = i
		}
	}
	if name < 0 || words[name] != "eukhe" {
		t.Errorf("claude mcp add %s: no name eukhe", strings.Join(words, " "))
	}
}

// eglotForm is the Eglot line of guide/clients.md.
var eglotForm = regexp.MustCompile("`(\\(add-to-list 'eglot-server-programs[^`]*)`")

// checkEglotForm reads a page's Eglot form with Emacs's own reader and
// checks that it adds ("eukhe" "lsp") for some modes.
func checkEglotForm(t *testing.T, md string) {
	m := eglotForm.FindStringSubmatch(strings.ReplaceAll(md, "\n", " "))
	if m == nil {
		t.Errorf("the page has no Eglot form")
		return
	}
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		testkit.Missing(t, "emacs is not installed: the Eglot form is read with Emacs's reader")
	}
	prog := `(let* ((form (car (read-from-string (car command-line-args-left))))
       (entry (nth 2 form)))
  (unless (and (eq (car form) 'add-to-list)
               (equal (nth 1 form) ''eglot-server-programs)
               (equal (cdr (cadr entry)) '("eukhe" "lsp")))
    (error "not an eglot-server-programs entry running eukhe lsp: %S" form))
  (princ "ok"))`
	out, err := exec.Command(emacs, "--batch", "--eval", prog, m[1]).CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Errorf("Emacs reads the Eglot form %s as: %v\n%s", m[1], err, out)
	}
}
