// Package eglot tests eukhe lsp with a client nobody here wrote: Emacs's
// own LSP client, Eglot, in batch mode (scenario.el), with an agent
// attached through eukhe mcp. .ci/run installs Emacs 30 (Eglot is part of
// it); without Emacs the test fails under CI and is skipped elsewhere.
package eglot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

var binary string

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, "../../cmd/eukhe", &binary) }

// emacs is the Emacs to test with: EUKHE_EMACS, else emacs on PATH; it
// must be 29 or later (Eglot is part of it).
func emacs(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		testkit.Missing(t, why+": the Eglot end-to-end test needs Emacs 29 or later, which has Eglot (.ci/run installs emacs-nox 30 from bookworm-backports)")
	}
	p := os.Getenv("EUKHE_EMACS")
	if p == "" {
		var err error
		if p, err = exec.LookPath("emacs"); err != nil {
			missing("emacs is not installed")
		}
	}
	out, err := exec.Command(p, "--batch", "-Q", "--eval", "(princ emacs-major-version)").Output()
	if v, _ := strconv.Atoi(strings.TrimSpace(string(out))); err != nil || v < 29 {
		missing(fmt.Sprintf("%s is Emacs %q (%v)", p, strings.TrimSpace(string(out)), err))
	}
	return p
}

// result is what scenario.el saw.
type result struct {
	Server    string `json:"server"`
	Read      string `json:"read"`
	Edit      string `json:"edit"`
	A         string `json:"a"`
	B         string `json:"b"`
	Gated     string `json:"gated"`
	ReadAfter string `json:"read_after"`
	Asked     []struct {
		Prompt  string   `json:"prompt"`
		Choices []string `json:"choices"`
	} `json:"asked"`
	KeysLeft  int      `json:"keys_left_at_reply"`
	LspExit   *int     `json:"lsp_exit"`
	Emacs     string   `json:"emacs"`
	Error     string   `json:"error"`
	McpStderr string   `json:"mcp_stderr"`
	Edits     []string `json:"edits"`
}

// runScenario runs scenario.el in Emacs over a fresh workspace whose user
// settings hold auto; it gives what the scenario saw and the workspace.
func runScenario(t *testing.T, auto string, env ...string) (result, string) {
	em := emacs(t)
	script, err := filepath.Abs("scenario.el")
	if err != nil {
		t.Fatal(err)
	}
	w := testkit.NewWorkspace(t, map[string]string{"a.txt": "a one\na two\na three\n", "b.txt": "b one\nb two\n"},
		`{"shell.autoEffects": `+auto+`}`)
	root := w.Root
	out := filepath.Join(w.Base, "results.json")
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, em, "--batch", "-Q", "-l", script)
	cmd.Dir = root
	cmd.Env = w.Env(append([]string{"XDG_CACHE_HOME=" + filepath.Join(w.Home, "cache"),
		"EUKHE_ROOT=" + root, "EUKHE_BIN=" + binary, "EUKHE_OUT=" + out}, env...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("emacs: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("scenario.el wrote no results: %v\n%s", err, stderr.String())
	}
	var res result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results: %v\n%s", err, b)
	}
	t.Logf("Emacs %s", res.Emacs)
	if res.Error != "" {
		t.Fatalf("the scenario failed in Emacs: %s\neukhe mcp:\n%s\nEmacs:\n%s", res.Error, res.McpStderr, stderr.String())
	}
	t.Logf("the workspace edits Eglot got: %s", strings.Join(res.Edits, "\n"))
	return res, root
}

// Eglot runs eukhe lsp; an attached agent reads the user's unsaved text,
// its edit of two files lands in both buffers, and its gated step, shown
// by Eglot with window/showMessageRequest and answered by Enter alone
// (Eglot pre-fills the first action), is denied.
func TestEglotReadsUnsavedTextLandsATwoFileEditAndEnterAloneDenies(t *testing.T) {
	res, root := runScenario(t, `["read", "write"]`)
	if res.Server != "eukhe" {
		t.Errorf("Eglot's server is %q", res.Server)
	}
	if !strings.Contains(res.Read, "2:typed a two") {
		t.Errorf("the agent's read of a buffer with unsaved typing:\n%s", res.Read)
	}
	if !regexp.MustCompile(`^Applied to a\.txt#[0-9a-f]+, b\.txt#[0-9a-f]+\.`).MatchString(res.Edit) {
		t.Errorf("the two-file edit said:\n%s", res.Edit)
	}
	if res.A != "A ONE\ntyped a two\na three\n" || res.B != "B ONE\nb two\n" {
		t.Errorf("the buffers after the edit:\na.txt %q\nb.txt %q", res.A, res.B)
	}
	if !strings.Contains(res.ReadAfter, "1:A ONE\n2:typed a two\n") {
		t.Errorf("the read after the edit:\n%s", res.ReadAfter)
	}
	if len(res.Asked) != 1 || len(res.Asked[0].Choices) == 0 || res.Asked[0].Choices[0] != "Deny" ||
		!strings.Contains(res.Asked[0].Prompt, "sh -c 'echo ran > gated.txt'") {
		t.Errorf("Eglot asked %+v", res.Asked)
	}
	if _, err := os.Stat(filepath.Join(root, "gated.txt")); err == nil || !strings.Contains(res.Gated, "the user denied it") {
		t.Errorf("Enter alone in Eglot's minibuffer ran the gated step or said:\n%s", res.Gated)
	}
	// After shutdown and exit eukhe lsp ends at once with status 0; Eglot
	// kills a server still running shortly after exit (status 9).
	if res.LspExit == nil || *res.LspExit != 0 {
		status := "unknown"
		if res.LspExit != nil {
			status = strconv.Itoa(*res.LspExit)
		}
		t.Errorf("eukhe lsp ended with status %s after shutdown and exit from Eglot (9: killed, still running); want 0 at once", status)
	}
}

// The user types steadily in Eglot (a key every 0.1 s: Eglot sends
// didChange only after 0.5 s without typing) while the agent edits
// another line of the same buffer: no key is lost, the edit is in the
// buffer, the reply never says it was not applied, and once the user
// pauses eukhe's copy is the buffer.
func TestEglotWhileTypingLosesNoKeyAndTheReplyIsTruthful(t *testing.T) {
	const typed = " and the user keeps typing here"
	res, _ := runScenario(t, `["read", "write"]`, "EUKHE_SCENARIO=typing", "EUKHE_TYPED="+typed)
	want := "A ONE\na two\na three" + typed + "\n"
	if res.A != want {
		t.Errorf("the buffer after typing and the edit:\n%q\nwant\n%q", res.A, want)
	}
	if e := res.Edit; strings.Contains(strings.ToLower(e), "not applied") || !(strings.HasPrefix(e, "Applied to a.txt#") || strings.Contains(e, "not confirmed yet")) {
		t.Errorf("the edit made while the user typed said:\n%s", e)
	}
	t.Logf("%d of %d keys were still to type when the reply came: %s", res.KeysLeft, len(typed), firstLine(res.Edit))
	rows := ""
	for i, l := range strings.SplitAfter(want, "\n") {
		if l != "" {
			rows += strconv.Itoa(i+1) + ":" + l
		}
	}
	if !strings.HasSuffix(res.ReadAfter, "]\n"+rows) {
		t.Errorf("the read once the user paused:\n%s\nwant the rows\n%s", res.ReadAfter, rows)
	}
	if res.LspExit == nil || *res.LspExit != 0 {
		t.Errorf("eukhe lsp ended with status %v after shutdown and exit", res.LspExit)
	}
}

// The same, with the user typing at the end of the very line the agent
// replaces: Eglot holds the keys back (no didChange until the pause) and
// checks only the version it last sent, so an edit eukhe computed without
// them may replace them. No key may be lost: the edit lands beside the
// typed text, or does not land.
func TestEglotTypingOnTheLineTheAgentEditsLosesNoKey(t *testing.T) {
	const typed = " and the user keeps typing here"
	res, _ := runScenario(t, `["read", "write"]`, "EUKHE_SCENARIO=typing", "EUKHE_TYPE_LINE=1", "EUKHE_TYPED="+typed)
	t.Logf("%d of %d keys were still to type when the reply came: %s", res.KeysLeft, len(typed), firstLine(res.Edit))
	line1, _, _ := strings.Cut(res.A, "\n")
	if !strings.HasSuffix(line1, typed) {
		t.Errorf("keys typed on the line the agent edited were lost: line 1 is %q, the user typed %q at its end", line1, typed)
	}
	if strings.Contains(strings.ToLower(res.Edit), "not applied") && strings.HasPrefix(line1, "A ONE") {
		t.Errorf("the edit is in the buffer, and the reply said:\n%s", res.Edit)
	}
	if !strings.HasSuffix(res.ReadAfter, "]\n1:"+line1+"\n2:a two\n3:a three\n") {
		t.Errorf("the read once the user paused:\n%s\nthe buffer:\n%s", res.ReadAfter, res.A)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
