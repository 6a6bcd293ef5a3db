package nvim_test

import (
	"fmt"
	"github.com/eukhe/eukhe/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The Neovim plugin in real headless Neovim: `--clean` with the plugin on
// 'runtimepath' (as plain packpath does), against the real `eukhe lsp`
// built from this repository. The scenarios are Lua scripts in test/;
// each records what it sees in a JSON file. Neovim 0.7.2 is Debian
// bookworm's (.ci/run installs it); EUKHE_NVIM names another nvim, and
// EUKHE_TEST_BIN a prebuilt eukhe to test instead of building one.

var binary string // the eukhe binary TestMain builds

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, "../../cmd/eukhe", &binary) }

func nvimBin(t *testing.T) string { return testkit.Nvim(t) }

// world is a workspace with a.txt, b.txt and c.txt of four lines each.
type world struct {
	t    *testing.T
	nvim string
	root string
	conf string // XDG_CONFIG_HOME: the user settings are conf/eukhe/settings.json
	env  []string
	// plugin is the plugin directory on 'runtimepath': this one, or a
	// copy (copyPlugin).
	plugin string
}

func newWorld(t *testing.T) *world {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, nvim: nvimBin(t), root: root, conf: t.TempDir()}
	for _, n := range []string{"a", "b", "c"} {
		w.put(n+".txt", fmt.Sprintf("%s one\n%s two\n%s three\n%s four\n", n, n, n, n))
	}
	return w
}

func (w *world) put(name, text string) {
	p := filepath.Join(w.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) disk(name string) string {
	b, err := os.ReadFile(filepath.Join(w.root, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// run runs a scenario of test/ in headless Neovim and gives its results.
func (w *world) run(script string) map[string]any {
	w.t.Helper()
	src, err := filepath.Abs(".")
	if err != nil {
		w.t.Fatal(err)
	}
	plugin := src
	if w.plugin != "" {
		plugin = w.plugin
	}
	tests := filepath.Join(src, "test")
	env := append([]string{"EUKHE_BIN=" + binary, "EUKHE_ROOT=" + w.root,
		"EUKHE_HARNESS=" + filepath.Join(tests, "harness.lua"),
		"XDG_CONFIG_HOME=" + w.conf, "XDG_RUNTIME_DIR=" + w.t.TempDir()}, w.env...)
	return testkit.Scenario(w.t, w.nvim, w.root, []string{"--cmd", "set rtp+=" + plugin}, filepath.Join(tests, script), env)
}

func str(res map[string]any, key string) string { return testkit.Str(res, key) }

func flag(res map[string]any, key string) bool {
	b, _ := res[key].(bool)
	return b
}

func num(res map[string]any, key string) int {
	f, _ := res[key].(float64)
	return int(f)
}

func TestReviewShowsHunksAndUndoRevertsOne(t *testing.T) {
	w := newWorld(t)
	res := w.run("review.lua")
	if !flag(res, "commands") {
		t.Error("plugin/eukhe.lua did not define the commands at startup (plain packpath)")
	}
	if !flag(res, "same_client") {
		t.Error("two buffers under one root got two clients")
	}
	adv, _ := res["advertised"].(map[string]any)
	if adv["kind"] != "nvim" || !strings.Contains(fmt.Sprint(adv["methods"]), "eukhe/review") ||
		!strings.Contains(fmt.Sprint(adv["methods"]), "eukhe/approve") {
		t.Errorf("experimental.eukhe = %v", adv)
	}
	// Neovim checks only the first document's version of an applyEdit:
	// claiming transactional failureHandling would let stale buffers take
	// a multi-file edit in one applyEdit.
	if fh := str(res, "failure_handling"); fh == "transactional" || fh == "textOnlyTransactional" {
		t.Errorf("the plugin claims workspaceEdit.failureHandling %q", fh)
	}
	edit := str(res, "edit")
	if !strings.HasPrefix(edit, "Applied to a.txt#") || strings.Contains(edit, "NOT") {
		t.Fatalf("reply:\n%s", edit)
	}
	// saveDocuments: the clean buffers were saved.
	if flag(res, "a_modified") {
		t.Error("a.txt was left modified after the edit: eukhe/saveDocuments did not save it")
	}
	if d := w.disk("b.txt"); d != "b one\nb TWO\nb three\nb four\n" {
		t.Errorf("b.txt on disk = %q", d)
	}
	hunks, _ := res["hunks"].([]any)
	if len(hunks) != 4 {
		t.Fatalf("hunks under review: %v", hunks)
	}
	// two changed lines: each a highlighted range and a mark of its
	// removed line
	if n := num(res, "a_marks"); n != 4 {
		t.Errorf("a.txt shows %d review marks, want 4", n)
	}
	if !flag(res, "a_keymap") {
		t.Error("no buffer-local ]r mapping in a buffer under review")
	}
	if got := num(res, "jumped_to"); got != 2 {
		t.Errorf("]r from line 1 went to line %d, want 2 (the first hunk)", got)
	}
	if got, want := str(res, "a_after_undo"), "a one\na two\na three\na FOUR\n"; got != want {
		t.Errorf(":EukheUndo: a.txt = %q, want %q", got, want)
	}
	if d := w.disk("a.txt"); d != "a one\na two\na three\na FOUR\n" {
		t.Errorf("a.txt on disk after the undo = %q", d)
	}
	// The server's tag of a.txt moves with the undo: [a.txt#TAG] headers.
	tagOf := func(text string) string {
		head, _, _ := strings.Cut(text, "\n")
		if !strings.HasPrefix(head, "[a.txt#") || !strings.HasSuffix(head, "]") {
			t.Errorf("no [a.txt#TAG] header in a read:\n%s", text)
		}
		return head
	}
	before, after := str(res, "a_read_before_undo"), str(res, "a_read_after_undo")
	if tb, ta := tagOf(before), tagOf(after); tb == ta {
		t.Errorf("the server's tag of a.txt did not move with :EukheUndo: %s before and after\n%s", tb, after)
	}
	if !strings.Contains(before, "a TWO") || strings.Contains(after, "a TWO") {
		t.Errorf("reads around the undo:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	qf, _ := res["qf"].([]any)
	var rows []string
	for _, it := range qf {
		m := it.(map[string]any)
		rows = append(rows, fmt.Sprintf("%v:%v", m["file"], m["lnum"]))
	}
	if got := strings.Join(rows, " "); got != "a.txt:5 b.txt:2 c.txt:2" {
		t.Errorf(":EukheReview lists %q, want a.txt:5 b.txt:2 c.txt:2", got)
	}
	if n := num(res, "c_marks"); n != 2 {
		t.Errorf("c.txt opened after the edit shows %d review marks, want 2", n)
	}
	if num(res, "a_marks_after") != 0 || num(res, "b_marks_after") != 0 {
		t.Errorf(":EukheKeepAll! left marks: a %d, b %d", num(res, "a_marks_after"), num(res, "b_marks_after"))
	}
	if got := str(res, "a_final"); got != "typed first\na one\na two\na three\na FOUR\n" {
		t.Errorf("keep changed a.txt: %q", got)
	}
	if d := w.disk("c.txt"); d != "c one\nc TWO\nc three\nc four\n" {
		t.Errorf("c.txt on disk = %q", d)
	}
}

func TestApprovalDialogNeverDefaultsToYes(t *testing.T) {
	w := newWorld(t)
	w.env = []string{"TZ=UTC-2"} // two hours east of UTC, in POSIX's spelling
	res := w.run("approve.lua")
	for key, want := range map[string]string{
		"esc": "deny", "enter": "deny", "allow": "approve", "session": "approve_session",
		"no_session_offer": "deny", "typed_before": "deny",
		"settled_before": "deny", "settled_while_open": "deny",
	} {
		if got := str(res, key); got != want {
			t.Errorf("%s: answer %q, want %q", key, got, want)
		}
	}
	asked, _ := res["asked"].([]any)
	if len(asked) != 7 {
		t.Fatalf("the dialog was shown %d times, want 7 (not for the question settled before): %v", len(asked), asked)
	}
	first := asked[0].(map[string]any)
	msg := first["msg"].(string)
	for _, want := range []string{`rm -rf build\x1b[2J`, "subagent reviewer (session s1)", "step 2", "effects: write, exec", w.root} {
		if !strings.Contains(msg, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, msg)
		}
	}
	if first["choices"] != "&Deny\n&Allow\nAllow for &session" || first["default"] != float64(1) {
		t.Errorf("choices %q, default %v: Deny must be first and the default", first["choices"], first["default"])
	}
	if c := asked[4].(map[string]any)["choices"]; c != "&Deny\n&Allow" {
		t.Errorf("choices without approve_session offered: %q", c)
	}
	if m := asked[4].(map[string]any)["msg"].(string); !strings.Contains(m, "The agent of session s1") {
		t.Errorf("the session's own agent is not named:\n%s", m)
	} else if strings.Contains(m, "Unanswered by") {
		t.Errorf("a question without a deadline says one:\n%s", m)
	}
	// The server's deadline, in the editor's local time.
	if !strings.Contains(msg, "Unanswered by 11:05:07, it is denied.") {
		t.Errorf("the dialog does not say the server's deadline in local time:\n%s", msg)
	}
	if ta := asked[5].(map[string]any)["typeahead"]; ta != float64(0) {
		t.Errorf("a key typed before the dialog reached it: %v", ta)
	}
	if got := str(res, "status_while_open"); got != "eukhe: 1 question" {
		t.Errorf("statusline while a question waits: %q", got)
	}
	if got := str(res, "status_after"); got != "" {
		t.Errorf("statusline with no question: %q", got)
	}
	notes := fmt.Sprint(res["notes"])
	if !strings.Contains(notes, "grep") || !strings.Contains(notes, "missed a match") {
		t.Errorf("eukhe/toolIssue was not shown: %v", notes)
	}
}

// TestApprovalDialogCannotBeSpoofed: nothing the agent wrote poses as a
// line of the dialog's own: every line of the step is indented, the
// subagent's name, the session, the directory and the effects are
// escaped as the server escapes them, and Enter on the real confirm()
// denies.
func TestApprovalDialogCannotBeSpoofed(t *testing.T) {
	w := newWorld(t)
	res := w.run("approve_spoof.lua")
	if got := str(res, "answer"); got != "deny" {
		t.Errorf("Enter answered %q, want deny", got)
	}
	asked, _ := res["asked"].([]any)
	if len(asked) != 3 {
		t.Fatalf("the dialog was shown %d times, want 3: %v", len(asked), asked)
	}
	if cell := asked[2].(map[string]any)["msg"].(string); !strings.HasPrefix(cell, "eukhe: The agent of session s1 asks to run an ipython cell:\n\n    import os\n    os.system('make')\n") {
		t.Errorf("a cell's dialog:\n%s", cell)
	}
	first := asked[0].(map[string]any)
	if first["choices"] != "&Deny\n&Allow\nAllow for &session" || first["default"] != float64(1) {
		t.Errorf("choices %q, default %v: Deny must be first and the default", first["choices"], first["default"])
	}
	msg := first["msg"].(string)
	lines := strings.Split(msg, "\n")
	want := []string{
		`eukhe: The subagent $'rev\u202ereweiv' (session $'s1\u2028Allow') asks to run step 1:`,
		"",
		"    cat >x <<EOF",
		"    [Allow]",
		"    1. Allow",
		"    2. Deny",
		`    EOF$'\u200b'`,
		"",
		"in $'" + w.root + `/sub\nRequest Actions:'`,
		`effects: write, $'exec\u2066'`,
		"Enter or Esc denies.",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the dialog says:\n%s\nwant:\n%s", msg, strings.Join(want, "\n"))
	}
	for _, hidden := range []string{"\u202e", "\u2028", "\u200b", "\u2066", "\r"} {
		if strings.Contains(msg, hidden) {
			t.Errorf("the dialog holds %q unescaped:\n%s", hidden, msg)
		}
	}
	// A line wider than the screen is folded, its rest marked, so the
	// screen never wraps a padded "[Allow]" to the margin.
	if got := str(res, "padded_answer"); got != "deny" {
		t.Errorf("Enter answered %q to the padded step, want deny", got)
	}
	padded := asked[1].(map[string]any)["msg"].(string)
	columns := num(res, "columns")
	rests := 0
	for _, l := range strings.Split(padded, "\n") {
		if n := utf8.RuneCountInString(l); n >= columns {
			t.Errorf("a line of %d characters on a screen of %d columns: %q", n, columns, l)
		}
		if strings.HasPrefix(l, "  \u21aa ") {
			rests++
		}
		if strings.Contains(l, "[Allow]") && !strings.HasPrefix(l, "  \u21aa ") ||
			strings.Contains(l, "effects: read") && !strings.HasPrefix(l, "  \u21aa ") {
			t.Errorf("the rest of a folded line is not marked: %q\n%s", l, padded)
		}
	}
	if rests < 2 {
		t.Errorf("%d folded lines, want the step's and the directory's:\n%s", rests, padded)
	}
}

func TestStartOneClientPerRootAndHealthOK(t *testing.T) {
	w := newWorld(t)
	w.put("sub/.eukhe/settings.json", "{}\n")
	w.put("sub/s.txt", "s\n")
	w.env = []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")}
	res := w.run("start.lua")
	if !flag(res, "ab_same") || !flag(res, "s_other") {
		t.Errorf("clients: a and b share one %v, sub has its own %v; roots %v", res["ab_same"], res["s_other"], res["roots"])
	}
	if roots := fmt.Sprint(res["roots"]); !strings.Contains(roots, filepath.Join(w.root, "sub")) || len(res["roots"].([]any)) != 2 {
		t.Errorf("roots %v", roots)
	}
	if cmd := fmt.Sprint(res["cmd"]); !strings.Contains(cmd, binary) {
		t.Errorf("the server was not found on PATH: cmd %v", cmd)
	}
	health := str(res, "health")
	for _, want := range []string{"found: " + binary, "running for " + w.root} {
		if !strings.Contains(health, want) {
			t.Errorf(":checkhealth eukhe does not say %q:\n%s", want, health)
		}
	}
	if strings.Contains(health, "ERROR") || strings.Contains(health, "WARNING") {
		t.Errorf(":checkhealth eukhe reports a problem:\n%s", health)
	}
}

func TestMissingBinaryIsReported(t *testing.T) {
	w := newWorld(t)
	res := w.run("missing.lua")
	if flag(res, "client") {
		t.Error("a client started without a binary")
	}
	if notes := fmt.Sprint(res["notes"]); !strings.Contains(notes, "not an executable") || !strings.Contains(notes, "setup({cmd") {
		t.Errorf("the message does not say what to do: %v", notes)
	}
	if health := str(res, "health"); !strings.Contains(health, "ERROR") || !strings.Contains(health, "no/such/eukhe") {
		t.Errorf(":checkhealth eukhe does not report the missing binary:\n%s", health)
	}
}

// TestApprovalFromAnAgent: a shell step of an agent attached over eukhe
// mcp is asked in Neovim; Allow runs it, <Esc> (confirm gives 0) denies it.
func TestApprovalFromAnAgent(t *testing.T) {
	for _, c := range []struct {
		name, button string
		runs         bool
	}{{"allow", "2", true}, {"escape", "0", false}, {"enter", "1", false}} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.env = []string{"EUKHE_BUTTON=" + c.button}
			settings := filepath.Join(w.conf, "eukhe", "settings.json")
			if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read"]}`), 0o600); err != nil {
				t.Fatal(err)
			}
			res := w.run("approve_agent.lua")
			asked, _ := res["asked"].([]any)
			if len(asked) != 1 {
				t.Fatalf("the dialog was shown %d times, want 1; the agent got:\n%s\nnotes: %v", len(asked), str(res, "reply"), res["notes"])
			}
			if msg := asked[0].(map[string]any)["msg"].(string); !strings.Contains(msg, "echo made > made.txt") {
				t.Errorf("the dialog does not show the step:\n%s", msg)
			}
			_, err := os.Stat(filepath.Join(w.root, "made.txt"))
			if ran := err == nil; ran != c.runs {
				t.Errorf("button %s: the step ran: %v, want %v; the agent got:\n%s", c.button, ran, c.runs, str(res, "reply"))
			}
		})
	}
}

// TestEditorToolsForAgents: the plugin lends nvim/buffers, nvim/selection
// and nvim/diagnostics (eukhe/joinTool); an agent over eukhe mcp calls
// them through dyn and the plugin answers eukhe/runTool.
func TestEditorToolsForAgents(t *testing.T) {
	w := newWorld(t)
	res := w.run("tools_agent.lua")
	if l := str(res, "listed"); !strings.Contains(l, "nvim/buffers") || !strings.Contains(l, "nvim/diagnostics") {
		t.Errorf("dyn does not list the editor's tools:\n%s", l)
	}
	buffers := str(res, "buffers")
	if !strings.Contains(buffers, "b.txt [modified]") || strings.Contains(buffers, "a.txt [modified]") ||
		!strings.Contains(buffers, "a.txt") {
		t.Errorf("nvim/buffers:\n%s", buffers)
	}
	if s := str(res, "selection"); !strings.Contains(s, "b.txt lines 2-3") || !strings.Contains(s, "b two\nb three") {
		t.Errorf("nvim/selection:\n%s", s)
	}
	if d := str(res, "diagnostics"); !strings.Contains(d, "a.txt:3:1: ERROR: bad three") {
		t.Errorf("nvim/diagnostics:\n%s", d)
	}
}

// TestApprovalSettledByASecondClient: `eukhe approvals` answers y while
// Neovim's dialog is open; the step runs, the plugin drops its question
// and the Deny pressed in Neovim afterwards does not count.
func TestApprovalSettledByASecondClient(t *testing.T) {
	w := newWorld(t)
	settings := filepath.Join(w.conf, "eukhe", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	res := w.run("approve_second.lua")
	if n := num(res, "asked"); n != 1 {
		t.Fatalf("Neovim's dialog was shown %d times, want 1; the agent got:\n%s\nterminal:\n%s", n, str(res, "reply"), str(res, "terminal"))
	}
	if _, err := os.Stat(filepath.Join(w.root, "made.txt")); err != nil {
		t.Errorf("the step allowed in the terminal did not run; the agent got:\n%s\nterminal:\n%s", str(res, "reply"), str(res, "terminal"))
	}
	if r := str(res, "reply"); !strings.Contains(r, "echo made > made.txt") || !strings.Contains(r, "[exit 0]") {
		t.Errorf("the agent's reply does not say the step ran:\n%s", r)
	}
	if a := str(res, "settled_answer"); a != "approve" {
		t.Errorf("eukhe/approvalSettled answer %q, want approve", a)
	}
	if s := str(res, "status_after"); s != "" {
		t.Errorf("the plugin still counts the question: statusline %q", s)
	}
	if notes := fmt.Sprint(res["notes"]); !strings.Contains(notes, "answered elsewhere") {
		t.Errorf("the plugin did not say the question was answered elsewhere: %v", notes)
	}
}

// TestHealthReportsABrokenSettingsFile: a user settings file that is not
// JSON is an ERROR of :checkhealth eukhe, naming the file.
func TestHealthReportsABrokenSettingsFile(t *testing.T) {
	w := newWorld(t)
	settings := filepath.Join(w.conf, "eukhe", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read"`), 0o600); err != nil {
		t.Fatal(err)
	}
	res := w.run("health_broken.lua")
	health := str(res, "health")
	var line string
	for _, l := range strings.Split(health, "\n") {
		if strings.Contains(l, "ERROR") && strings.Contains(l, settings) {
			line = l
		}
	}
	if line == "" || !strings.Contains(line, "not valid JSON") {
		t.Errorf(":checkhealth eukhe does not report the broken %s:\n%s", settings, health)
	}
	// The server says how a step's programs are confined (issue 13).
	if !strings.Contains(health, "confinement: ") {
		t.Errorf(":checkhealth eukhe does not show the confinement:\n%s", health)
	}
}
