package main

import (
	"fmt"
	"github.com/eukhe/eukhe/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eukhe lsp with real Neovim as the editor: headless, no plugin, no user
// config; the scenarios are Lua scripts in test/nvim that drive the server
// through the eukhe/tool request and record what they see. Neovim 0.7.2 is
// Debian bookworm's (.ci/run installs it); EUKHE_NVIM names another nvim
// to run (test/nvim/fetch-0.10.sh makes one for Neovim 0.10).

// nvimBin is the Neovim to test with, or a skip saying how to get one.
func nvimBin(t *testing.T) string { return testkit.Nvim(t) }

// nvimWorld is a workspace with three files, a.txt, b.txt, c.txt.
type nvimWorld struct {
	t    *testing.T
	nvim string
	root string
}

func newNvimWorld(t *testing.T) *nvimWorld {
	w := &nvimWorld{t: t, nvim: nvimBin(t), root: t.TempDir()}
	for _, n := range []string{"a", "b", "c"} {
		w.put(n+".txt", fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n))
	}
	return w
}

func (w *nvimWorld) put(name, text string) {
	if err := os.WriteFile(filepath.Join(w.root, name), []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *nvimWorld) disk(name string) string {
	b, err := os.ReadFile(filepath.Join(w.root, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// run runs a scenario script of test/nvim in headless Neovim and gives
// what it recorded.
func (w *nvimWorld) run(script string, methods ...string) map[string]any {
	w.t.Helper()
	return w.runEnv(script, nil, methods...)
}

// runEnv is run with more environment.
func (w *nvimWorld) runEnv(script string, env []string, methods ...string) map[string]any {
	w.t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "test", "nvim"))
	if err != nil {
		w.t.Fatal(err)
	}
	res := testkit.Scenario(w.t, w.nvim, w.root, nil, filepath.Join(dir, script), append([]string{
		"EUKHE_BIN=" + binary, "EUKHE_ROOT=" + w.root,
		"EUKHE_HARNESS=" + filepath.Join(dir, "harness.lua"),
		"EUKHE_METHODS=" + strings.Join(methods, ",")}, env...))
	w.t.Logf("Neovim %s", str(res, "nvim"))
	return res
}

func str(res map[string]any, key string) string { return testkit.Str(res, key) }

func TestLSPWithNeovimReadSeesUnsavedBufferText(t *testing.T) {
	w := newNvimWorld(t)
	res := w.run("read_unsaved.lua")
	if r := str(res, "read"); !strings.Contains(r, "2:unsaved two") {
		t.Errorf("read of a buffer with unsaved text:\n%s", r)
	}
	if g := str(res, "grep"); !strings.Contains(g, "a.txt") || !strings.Contains(g, "2:unsaved two") {
		t.Errorf("grep of a buffer with unsaved text:\n%s", g)
	}
	if d := w.disk("a.txt"); d != "a one\na two\na three\n" {
		t.Errorf("a.txt on disk = %q", d)
	}
}

func TestLSPWithNeovimEditLandsInBuffersAndOnDisk(t *testing.T) {
	w := newNvimWorld(t)
	res := w.run("edit_three.lua")
	edit := str(res, "edit")
	if !strings.HasPrefix(edit, "Applied to a.txt#") || strings.Contains(edit, "NOT") ||
		!strings.Contains(edit, "b.txt#") || !strings.Contains(edit, "c.txt#") {
		t.Fatalf("reply:\n%s", edit)
	}
	if !strings.Contains(edit, "warning: a.txt: the edit is in the editor's buffer, unsaved") {
		t.Errorf("the reply does not say the buffers are unsaved:\n%s", edit)
	}
	for _, n := range []string{"a", "b"} {
		if got, want := str(res, n), fmt.Sprintf("%s one\n%s TWO\n%s three\n", n, n, n); got != want {
			t.Errorf("buffer %s.txt = %q, want %q", n, got, want)
		}
		if d := w.disk(n + ".txt"); d != fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n) {
			t.Errorf("%s.txt was written on disk behind Neovim: %q", n, d)
		}
	}
	if d := w.disk("c.txt"); d != "c one\nc TWO\nc three\n" {
		t.Errorf("closed c.txt on disk = %q", d)
	}
	if open, _ := res["c_open"].(bool); open {
		t.Error("the closed file was loaded into a buffer")
	}
	if got := str(res, "a_undone"); got != "a one\na two\na three\n" {
		t.Errorf(":undo did not undo the agent's change: %q", got)
	}
	if r := str(res, "read_after_undo"); !strings.Contains(r, "2:a two") {
		t.Errorf("the server did not see the undo:\n%s", r)
	}
}

// Typing after the read on a line the edit stands on refuses the edit;
// typing on another line just before Neovim applies the edit's second
// document makes Neovim skip it as stale, and eukhe makes it again over
// the typing: both land, the typing kept (issue 22, item 1; before, the
// edit landed nowhere).
func TestLSPWithNeovimStaleBufferGetsTheEditRebased(t *testing.T) {
	w := newNvimWorld(t)
	res := w.run("stale.lua")
	if r := str(res, "refused"); !strings.HasPrefix(r, "NOT applied: a.txt changed since") {
		t.Errorf("an edit over lines the user typed on after the read:\n%s", r)
	}
	raced := str(res, "raced")
	if !strings.HasPrefix(raced, "Applied to a.txt#") || !strings.Contains(raced, "b.txt#") || strings.Contains(raced, "NOT") {
		t.Fatalf("reply when the user typed just before Neovim applied the edit:\n%s", raced)
	}
	if got := str(res, "a"); got != "a one\na TWO\na three!\n" {
		t.Errorf("a.txt: %q", got)
	}
	if got := str(res, "b"); got != "typed b one\nb TWO\nb three!\n" {
		t.Errorf("b.txt must hold what the user typed and the edit: %q", got)
	}
	for _, n := range []string{"a", "b", "c"} {
		if d := w.disk(n + ".txt"); d != fmt.Sprintf("%s one\n%s two\n%s three\n", n, n, n) {
			t.Errorf("%s.txt on disk = %q", n, d)
		}
	}
}

func TestLSPWithNeovimSavesCleanBuffersThroughSaveDocuments(t *testing.T) {
	w := newNvimWorld(t)
	res := w.run("saves.lua", "eukhe/saveDocuments")
	edit := str(res, "edit")
	if !strings.HasPrefix(edit, "Applied to a.txt#") || strings.Contains(edit, "NOT") {
		t.Fatalf("reply:\n%s", edit)
	}
	if d := w.disk("a.txt"); d != "A ONE\na two\na three\n" {
		t.Errorf("the clean buffer was not saved: a.txt on disk = %q", d)
	}
	if d := w.disk("b.txt"); d != "b one\nb two\nb three\n" {
		t.Errorf("the buffer with unsaved changes was saved: b.txt on disk = %q", d)
	}
	if m, _ := res["a_modified"].(bool); m {
		t.Error("a.txt is still modified in Neovim")
	}
	if !strings.Contains(edit, "warning: b.txt: it had unsaved changes in the editor before this edit") {
		t.Errorf("the reply does not say b.txt was left unsaved:\n%s", edit)
	}
}

// A user typing continuously near the agent's lines, with Neovim's
// default debounce, with and without the plugin's applyEdit check: every
// keystroke stays, and every reply is true to the buffer (issue 15).
func TestLSPWithNeovimTypingNearTheAgentsLinesLosesNoKeystroke(t *testing.T) {
	plugin, _ := filepath.Abs(filepath.Join("..", "..", "editors", "nvim"))
	for _, withPlugin := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain Neovim", true: "with the plugin"}[withPlugin], func(t *testing.T) {
			w := newNvimWorld(t)
			var b strings.Builder
			for l := 1; l <= 20; l++ {
				fmt.Fprintf(&b, "a line %d\n", l)
			}
			w.put("a.txt", b.String())
			var env []string
			if withPlugin {
				env = append(env, "EUKHE_PLUGIN="+plugin)
			}
			res := w.runEnv("typing.lua", env)
			typed, _ := res["typed"].(float64)
			if want := "a line 10" + strings.Repeat("k", int(typed)); str(res, "line10") != want || typed == 0 {
				t.Errorf("line 10 is %q after %v keystrokes: a keystroke was lost", str(res, "line10"), typed)
			}
			if n, _ := res["lines"].(float64); n != 20 {
				t.Errorf("the buffer has %v lines, not 20", n)
			}
			if wrong, _ := res["wrong"].([]any); len(wrong) > 0 {
				t.Errorf("replies not true to the buffer:\n%v", wrong)
			}
			t.Logf("%v keystrokes; replies: %v", typed, res["replies"])
			// the typing never touches the edited lines (9 and 11): an edit
			// the editor refused or skipped is made again over it and lands
			if refused, _ := res["refused"].([]any); len(refused) > 0 {
				t.Errorf("%d edits refused though the typing never touched their lines: %v", len(refused), refused)
			}
		})
	}
}
