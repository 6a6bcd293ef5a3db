package main

import (
	"encoding/json"
	"fmt"
	"os"
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

// snippetPages are the pages that give a user snippets: README, every
// page of guide/ and the Neovim plugin's README.
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
	pages["editors/nvim/README.md"] = page(t, "editors/nvim/README.md")
	return pages
}

func TestREADME_snippets_parse_in_their_clients_formats(t *testing.T) {
	pages := snippetPages(t)
	// What each kind of snippet is, and how many the pages give of it.
	kinds := map[string]int{}
	claudeAdds, eglotForms, rootArgs := 0, 0, 0
	for name, md := range pages {
		for _, b := range blocks(md, "json") {
			kinds[checkJSONSnippet(t, b)]++
			if strings.Contains(b, `"--root"`) {
				rootArgs++
			}
		}
		for _, b := range blocks(md, "vim") {
			checkVimSnippet(t, b)
			kinds["vim"]++
		}
		for _, b := range blocks(md, "lua") {
			checkLuaSnippet(t, b)
			kinds["lua"]++
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
		{"vim", 1, "Vim's ALE linter"}, {"lua", 2, "the Neovim plugin's lazy.nvim spec and its setup call"},
	} {
		if kinds[want.kind] < want.n {
			t.Errorf("README and guide/ give %d %s snippets; want %s (%v)", kinds[want.kind], want.kind, want.what, kinds)
		}
	}
	if rootArgs == 0 || !strings.Contains(pages["guide/clients.md"], `"--root"`) {
		t.Errorf("guide/clients.md gives no snippet that passes --root, for a client without roots (Claude Desktop)")
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
		args, _ := s["args"].([]any)
		if s["command"] != "eukhe" || len(args) == 0 || args[0] != "mcp" {
			t.Errorf("%s.%s does not run eukhe mcp: %v", what, name, s)
		}
		for i, a := range args {
			if a == "--root" && (i+1 >= len(args) || !strings.HasPrefix(fmt.Sprint(args[i+1]), "/")) {
				t.Errorf("%s.%s: --root is not followed by an absolute directory: %v", what, name, args)
			}
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

// The keys ALE documents for ale#linter#Define (":help ale#linter#Define").
var aleLinterKeys = []string{"name", "callback", "executable", "command", "output_stream", "read_buffer", "lint_file",
	"aliases", "lsp", "address", "language", "project_root", "initialization_options", "lsp_config", "cwd"}

// aleStub is ALE's autoload/ale/linter.vim reduced to a Define that keeps
// what each call defines (Vim defines an autoload function only from its
// own file, E746).
const aleStub = `function! ale#linter#Define(filetype, linter) abort
  call add(g:eukhe_defined, [a:filetype, a:linter])
endfunction
`

// vimDriver sources a Vim snippet with ALE stubbed (aleStub first on
// 'runtimepath'; under -u NONE no ALE is) and writes each definition as
// JSON, or the error Vim gave, to $EUKHE_SNIPPET_OUT.
const vimDriver = `execute 'set runtimepath^=' . fnameescape($EUKHE_ALE_STUB)
let g:eukhe_defined = []
let s:out = []
try
  execute 'source' fnameescape($EUKHE_SNIPPET)
  for [s:ft, s:l] in g:eukhe_defined
    let s:d = {'filetype': s:ft, 'keys': sort(keys(s:l))}
    for s:k in ['name', 'lsp', 'executable', 'command']
      let s:d[s:k] = get(s:l, s:k, '')
    endfor
    let s:root = get(s:l, 'project_root', '')
    let s:d.root = type(s:root) == v:t_func ? s:root(bufnr('')) : s:root
    call add(s:out, json_encode(s:d))
  endfor
catch
  let s:out = [json_encode({'error': v:exception . ' at ' . v:throwpoint})]
endtry
call writefile(s:out, $EUKHE_SNIPPET_OUT)
qall!
`

// checkVimSnippet sources a Vim snippet in a real Vim (EUKHE_VIM, else
// vim on PATH; -u NONE, Vim script as Vim reads it), with ALE's Define
// stubbed (ALE's own needs its whole plugin loaded, and only checks a
// linter when a buffer of its filetype lints), and checks what it defines: an LSP linter named eukhe that
// runs eukhe lsp over stdio, with the keys ALE documents and a project
// root.
func checkVimSnippet(t *testing.T, b string) {
	vim := os.Getenv("EUKHE_VIM")
	if vim == "" {
		var err error
		if vim, err = exec.LookPath("vim"); err != nil {
			testkit.Missing(t, "vim is not installed: the Vim snippets of guide/ are sourced in Vim (apt-get install vim)")
		}
	}
	dir := t.TempDir()
	snippet, driver, out := filepath.Join(dir, "snippet.vim"), filepath.Join(dir, "driver.vim"), filepath.Join(dir, "out.json")
	stub := filepath.Join(dir, "ale")
	if err := os.MkdirAll(filepath.Join(stub, "autoload", "ale"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(stub, "autoload", "ale", "linter.vim"), aleStub, 0o644)
	writeFile(t, snippet, b, 0o644)
	writeFile(t, driver, vimDriver, 0o644)
	cmd := exec.Command(vim, "-es", "-N", "-u", "NONE", "-i", "NONE", "-S", driver)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EUKHE_SNIPPET="+snippet, "EUKHE_SNIPPET_OUT="+out, "EUKHE_ALE_STUB="+stub)
	cmd.Stdin = strings.NewReader("")
	msg, err := cmd.CombinedOutput()
	res, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Errorf("Vim did not read the snippet (%v, %v):\n%s\n%s", err, rerr, msg, b)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Errorf("the Vim snippet defines no ALE linter:\n%s", b)
		return
	}
	for _, l := range lines {
		var d struct {
			Error                                string
			Filetype                             string
			Keys                                 []string
			Name, LSP, Executable, Command, Root string
		}
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Errorf("the Vim driver's output %q: %v", l, err)
			continue
		}
		if d.Error != "" {
			t.Errorf("Vim sourced the snippet with an error: %s\n%s", d.Error, b)
			continue
		}
		for _, k := range d.Keys {
			if !slices.Contains(aleLinterKeys, k) {
				t.Errorf("the ALE linter of %s has key %q, which ALE does not document (%v)", d.Filetype, k, aleLinterKeys)
			}
		}
		if d.Name != "eukhe" || d.LSP != "stdio" || d.Executable != "eukhe" || d.Command != "%e lsp" || d.Root == "" || d.Filetype == "" {
			t.Errorf("the Vim snippet does not define an LSP linter eukhe running `eukhe lsp` over stdio with a project root: %+v", d)
		}
	}
}

// The keys lazy.nvim documents for a plugin spec.
var lazySpecKeys = []string{"dir", "url", "name", "dev", "lazy", "enabled", "cond", "dependencies", "init", "opts", "config",
	"main", "build", "branch", "tag", "commit", "version", "pin", "submodules", "event", "cmd", "ft", "keys", "module",
	"priority", "optional", "specs"}

// luaDriver loads a Lua snippet with Neovim's own Lua (loadfile: compiled,
// not run), then runs it with the plugin stubbed (require('eukhe') is a
// table whose setup counts its calls); a chunk that returns a table is a
// lazy.nvim spec, whose config is run too. It writes what it saw as JSON
// to $EUKHE_SNIPPET_OUT.
const luaDriver = `local res = { setup = 0 }
package.loaded['eukhe'] = { setup = function() res.setup = res.setup + 1 end }
local chunk, err = loadfile(os.getenv('EUKHE_SNIPPET'))
if not chunk then
  res.error = err
else
  local ok, v = pcall(chunk)
  if not ok then
    res.error = tostring(v)
  elseif type(v) == 'table' then
    res.keys, res.dir = {}, v.dir
    for k in pairs(v) do table.insert(res.keys, tostring(k)) end
    if type(v.config) == 'function' then
      local ok2, e2 = pcall(v.config)
      if not ok2 then res.error = tostring(e2) end
    end
  end
end
local f = assert(io.open(os.getenv('EUKHE_SNIPPET_OUT'), 'w'))
f:write(vim.fn.json_encode(res))
f:close()
`

// checkLuaSnippet reads a Lua snippet with Neovim's own Lua (the client
// it is for; luac and luajit are not what Neovim runs, and nvim -l needs
// 0.9 where CI's is 0.7.2): it must compile, run with the plugin stubbed,
// and call require('eukhe').setup() once, itself or from a lazy.nvim
// spec's config; a spec's keys are lazy.nvim's and its dir is the
// plugin's folder.
func checkLuaSnippet(t *testing.T, b string) {
	nvim := testkit.Nvim(t)
	dir := t.TempDir()
	snippet, driver, out := filepath.Join(dir, "snippet.lua"), filepath.Join(dir, "driver.lua"), filepath.Join(dir, "out.json")
	writeFile(t, snippet, b, 0o644)
	writeFile(t, driver, luaDriver, 0o644)
	cmd := exec.Command(nvim, "--clean", "--headless", "-i", "NONE", "-c", "luafile "+driver, "-c", "qa!")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EUKHE_SNIPPET="+snippet, "EUKHE_SNIPPET_OUT="+out)
	msg, err := cmd.CombinedOutput()
	res, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Errorf("Neovim did not read the snippet (%v, %v):\n%s\n%s", err, rerr, msg, b)
		return
	}
	var d struct {
		Error string
		Setup int
		Keys  []string
		Dir   string
	}
	if err := json.Unmarshal(res, &d); err != nil {
		t.Errorf("the Lua driver's output %q: %v", res, err)
		return
	}
	if d.Error != "" {
		t.Errorf("Neovim's Lua reads the snippet with an error: %s\n%s", d.Error, b)
	}
	if d.Setup != 1 {
		t.Errorf("the Lua snippet calls require('eukhe').setup() %d times, want once:\n%s", d.Setup, b)
	}
	for _, k := range d.Keys {
		if !slices.Contains(lazySpecKeys, k) {
			t.Errorf("the lazy.nvim spec has key %q, which lazy.nvim does not document (%v)", k, lazySpecKeys)
		}
	}
	if d.Keys != nil && !strings.HasSuffix(d.Dir, "editors/nvim") {
		t.Errorf("the lazy.nvim spec's dir %q is not the plugin's folder (editors/nvim)", d.Dir)
	}
}
