package agent

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

var update = flag.Bool("update", false, "rewrite the golden texts under testdata/golden")

// goldenCase is one call whose result is kept as a golden text: its
// outcome, whether it is an error, and the text the model reads.
type goldenCase struct {
	name  string // the file under testdata/golden, without .txt
	setup func(g *goldenWorld)
	tool  string
	args  func(g *goldenWorld) any
	want  Outcome
	// check, when set, looks at the outcome's typed detail.
	check func(r Result) error
	// unix names the Unix programs the case runs (or whose job it
	// reads): on Windows, which lacks them, the case is left out.
	unix string
}

// goldenWorld is a session over a temp workspace whose questions the user
// denies, with a short blocking budget so that a sleep becomes a job.
type goldenWorld struct {
	t    *testing.T
	dir  string
	home string
	sess *Session
	mu   sync.Mutex
	set  settings.Settings
}

func newGoldenWorld(t *testing.T) *goldenWorld {
	g := &goldenWorld{t: t, dir: t.TempDir(), home: t.TempDir(), set: settings.Defaults()}
	env := map[string]string{"HOME": g.home}
	paths := settings.Locate(env, []string{g.dir})
	host := &Headless{RootDir: g.dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS),
		Current: func() settings.Settings { g.mu.Lock(); defer g.mu.Unlock(); return g.set },
		Client:  func(context.Context, gate.Question) gate.Answer { return gate.Deny }}
	s, err := Open(Options{Host: host, ShellBudget: 3 * time.Second,
		LogPath: filepath.Join(t.TempDir(), "log.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	g.sess = s
	return g
}

func (g *goldenWorld) put(name, text string) {
	g.t.Helper()
	if err := os.WriteFile(filepath.Join(g.dir, name), []byte(text), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

// auto sets shell.autoEffects.
func (g *goldenWorld) auto(effs gate.Effects) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.set.AutoEffects = gate.AutoOf(effs)
}

func (g *goldenWorld) read(path string) {
	g.t.Helper()
	if r, err := g.sess.Call(context.Background(), "read", json.RawMessage(fmt.Sprintf(`{"path":%q}`, path))); err != nil || r.Failed() {
		g.t.Fatalf("read %s: %v %s", path, err, r.Text())
	}
}

func goldenTag(text string) string { return docs.DigestOf([]byte(text)).Tag().String() }

const (
	goldenA  = "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	goldenA2 = "package a\n\nfunc A() int {\n\treturn 2\n}\n"
	goldenC  = "one\ntwo\nthree\nfour\nfive\nsix\n"
)

func args(v any) func(*goldenWorld) any { return func(*goldenWorld) any { return v } }

// goldenCases are a representative call of each outcome of each tool, in
// the order they run on one session.
var goldenCases = []goldenCase{
	{name: "read", setup: func(g *goldenWorld) { g.put("a.go", goldenA); g.put("c.txt", goldenC) },
		tool: "read", args: args(map[string]any{"path": "a.go"}), want: Done},
	{name: "read_selector", tool: "read", args: args(map[string]any{"path": "c.txt:2-3"}), want: Done},
	{name: "read_missing", tool: "read", args: args(map[string]any{"path": "b.go"}), want: Failed},
	{name: "read_bad_args", tool: "read", args: args(map[string]any{"path": 3}), want: BadArgs},
	{name: "edit_applied", tool: "edit", args: args(map[string]any{"patch": "[a.go#" + goldenTag(goldenA) + "]\n@@ 4-4\n+\treturn 2\n"}), want: Done},
	{name: "edit_not_applied_stale", tool: "edit", args: args(map[string]any{"patch": "[a.go#" + goldenTag(goldenA) + "]\n@@ 4-4\n+\treturn 3\n"}), want: NotApplied,
		check: func(r Result) error {
			if n := r.NotApplied; n == nil || n.File != "a.go" || n.Kind != docs.RefusedStale || strings.HasPrefix(n.Why, "NOT applied") {
				return fmt.Errorf("the refused section is %+v", n)
			}
			return nil
		}},
	{name: "edit_not_applied_unseen", tool: "edit", args: args(map[string]any{"patch": "[c.txt#" + goldenTag(goldenC) + "]\n@@ 5-5\n+FIVE\n"}), want: NotApplied,
		check: func(r Result) error {
			if len(r.Unseen) != 1 || r.Unseen[0].Path != "c.txt" || r.Unseen[0].Line != 5 {
				return fmt.Errorf("the unseen anchors are %+v", r.Unseen)
			}
			return nil
		}},
	{name: "edit_not_applied_exists", tool: "edit", args: args(map[string]any{"patch": "[c.txt]\n+new\n"}), want: NotApplied},
	{name: "edit_move", setup: func(g *goldenWorld) { g.read("c.txt") },
		tool: "edit", args: args(map[string]any{"patch": "[c.txt#" + goldenTag(goldenC) + "]\n@@ 1-1\n+ONE\nMV d.txt\n"}), want: Done},
	{name: "edit_refused_by_gate", setup: func(g *goldenWorld) { g.read("a.go"); g.auto(gate.Of(gate.Read)) },
		tool: "edit", args: args(map[string]any{"patch": "[a.go#" + goldenTag(goldenA2) + "]\n@@ 4-4\n+\treturn 4\n"}), want: Refused,
		check: refusedWith(0, gate.Of(gate.Write), "denied")},
	{name: "write_refused_by_gate", tool: "write", args: args(map[string]any{"path": "n.md", "content": "# notes\n"}), want: Refused},
	{name: "write", setup: func(g *goldenWorld) { g.auto(gate.DefaultAuto().Effects()) },
		tool: "write", args: args(map[string]any{"path": "n.md", "content": "# notes\n"}), want: Done},
	{name: "write_not_read", tool: "write", args: args(map[string]any{"path": "e.txt", "content": "x\n"}), want: NotApplied,
		setup: func(g *goldenWorld) { g.put("e.txt", "there\n") }},
	{name: "grep", tool: "grep", args: args(map[string]any{"pattern": "return"}), want: Done},
	{name: "glob", tool: "glob", args: args(map[string]any{"pattern": "**/*.go"}), want: Done},
	{name: "bash_done", tool: "bash", args: args(map[string]any{"script": "echo hi; echo there"}), want: Done},
	{name: "bash_exited", tool: "bash", args: args(map[string]any{"script": "echo a; exit 3; echo b"}), want: Done},
	{name: "bash_refused", setup: func(g *goldenWorld) { g.auto(gate.Of(gate.Read)) },
		tool: "bash", args: args(map[string]any{"script": "echo a; touch made.txt; echo b"}), want: Refused,
		check: refusedWith(2, gate.Of(gate.Write), "denied")},
	{name: "bash_job", setup: func(g *goldenWorld) { g.auto(gate.DefaultAuto().Effects()) },
		tool: "bash", args: args(map[string]any{"script": "sleep 30"}), want: Job, unix: "sleep",
		check: func(r Result) error {
			if r.Job != "j1" {
				return fmt.Errorf("job %q", r.Job)
			}
			return nil
		}},
	{name: "bash_kill", tool: "bash", args: args(map[string]any{"kill": "j1"}), want: Done, unix: "sleep (its job j1)"},
	{name: "bash_no_job", tool: "bash", args: args(map[string]any{"job": "j9"}), want: BadArgs, unix: "sleep (its job j1 is named)"},
	{name: "bash_bad_args", tool: "bash", args: args(map[string]any{}), want: BadArgs},
	{name: "bash_output_cut", tool: "bash", args: args(map[string]any{"script": "seq 1 20000"}), want: Done, unix: "seq",
		check: func(r Result) error {
			if r.Dropped == 0 || !strings.Contains(r.Text(), "["+"… "+thousands(r.Dropped)+" bytes not shown") {
				return fmt.Errorf("dropped %d bytes, the text says otherwise", r.Dropped)
			}
			return nil
		}},
	{name: "dyn_list", tool: "dyn", args: args(map[string]any{}), want: Done},
	{name: "dyn_report_issue", tool: "dyn", args: args(map[string]any{"name": "report_issue", "arguments": map[string]any{"tool": "read", "description": "it read"}}), want: Done},
	{name: "dyn_unknown", tool: "dyn", args: args(map[string]any{"name": "nope"}), want: BadArgs},
}

// TestGolden keeps the text the model reads for each outcome of each tool
// byte for byte (testdata/golden/*.txt; go test -run TestGolden -update
// rewrites them): a text that changes fails here, and the diff is the
// review. Each file holds the outcome, isError and the text; the text is
// also the MCP reply's, so the one renderer is what a client gets.
func TestGolden(t *testing.T) {
	g := newGoldenWorld(t)
	for _, c := range goldenCases {
		if c.unix != "" && runtime.GOOS == "windows" {
			t.Logf("%s: left out on Windows: it runs %s, which Windows (and Wine here) lacks", c.name, c.unix)
			continue
		}
		if c.setup != nil {
			c.setup(g)
		}
		raw, err := json.Marshal(c.args(g))
		if err != nil {
			t.Fatal(err)
		}
		r, err := g.sess.Call(context.Background(), c.tool, raw)
		if ae, ok := err.(*ArgsError); ok {
			r = badArgsText(ae.Msg) // the MCP reply of arguments that do not fit
		} else if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %s, want %s:\n%s", c.name, r.Outcome, c.want, r.Text())
		}
		if c.check != nil {
			if err := c.check(r); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		m := r.mcpResult()
		if len(m.Content) != 1 || m.IsError != r.Failed() || contentText(m) != r.Text() {
			t.Errorf("%s: the MCP reply is not the rendered text: %+v", c.name, m)
		}
		got := fmt.Sprintf("outcome: %s\nisError: %v\n---\n%s", r.Outcome, r.Failed(), g.scrub(r.Text()))
		file := filepath.Join("testdata", "golden", c.name+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v (go test -run TestGolden -update writes it)", c.name, err)
		}
		if got != string(want) {
			t.Errorf("%s: the text changed (go test -run TestGolden -update rewrites it after review):\n--- got\n%s\n--- want\n%s", c.name, got, want)
		}
	}
}

// refusedWith checks a gate's refusal: the step (0 for a document
// access), the effects and the reason.
func refusedWith(step int, effs gate.Effects, reason string) func(Result) error {
	return func(r Result) error {
		if f := r.Refusal; f == nil || f.Step != step || f.Effects != effs || f.Reason != reason {
			return fmt.Errorf("the refusal is %+v, want step %d, %s, %s", f, step, effs, reason)
		}
		return nil
	}
}

func thousands(n int64) string { return shell.Thousands(n) }

// scrub names the temp directories as $ROOT and $HOME, so the texts do
// not depend on where the test runs; a path under them that Windows
// writes with '\' (quoted, as a shell word: gate.Visible) is written as
// on Unix, with '/' and no quotes.
func (g *goldenWorld) scrub(s string) string {
	s = strings.NewReplacer(g.dir, "$ROOT", g.home, "$HOME").Replace(s)
	return windowsPathWord.ReplaceAllStringFunc(s, func(w string) string {
		return strings.ReplaceAll(strings.Trim(w, "'"), `\`, "/")
	})
}

// windowsPathWord is a quoted path under $ROOT or $HOME with '\' between
// its parts, no space or quote in it.
var windowsPathWord = regexp.MustCompile(`'\$(ROOT|HOME)(\\[^'\\\s]+)+'`)
