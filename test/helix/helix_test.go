// Package helix tests eukhe lsp with Helix, an editor whose LSP client
// nobody here wrote, driven in tmux as a user would drive it, with an
// agent attached through eukhe mcp (the official MCP SDK's client).
// .ci/run fetches Debian trixie's hx 25.01 (test/helix/fetch.sh) and sets
// EUKHE_HELIX; without Helix or tmux the test fails under CI and is
// skipped elsewhere.
package helix

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/internal/testkit"
)

var binary string

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, "../../cmd/eukhe", &binary) }

// helix is the Helix to test with: EUKHE_HELIX, else hx on PATH.
func helix(t *testing.T) string {
	t.Helper()
	p := os.Getenv("EUKHE_HELIX")
	if p == "" {
		var err error
		if p, err = exec.LookPath("hx"); err != nil {
			testkit.Missing(t, "hx is not installed: the Helix end-to-end test needs Helix (EUKHE_HELIX=$(test/helix/fetch.sh) fetches Debian trixie's)")
		}
	}
	if out, err := exec.Command(p, "--version").Output(); err != nil || !strings.HasPrefix(string(out), "helix ") {
		testkit.Missing(t, fmt.Sprintf("%s --version: %q (%v)", p, out, err))
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		testkit.Missing(t, "tmux is not installed: the Helix test drives Helix in it (apt install tmux)")
	}
	return p
}

// screen is Helix running in its own tmux server, as a user's terminal.
type screen struct {
	t      *testing.T
	socket string
}

func (s screen) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends keys as tmux names them ("Escape", "C-s") or as text (-l).
func (s screen) keys(k ...string) { s.tmux(append([]string{"send-keys", "-t", "hx"}, k...)...) }
func (s screen) text(x string)    { s.tmux("send-keys", "-t", "hx", "-l", x) }
func (s screen) shown() string    { return s.tmux("capture-pane", "-p", "-t", "hx") }

// waitShown waits until the screen holds want.
func (s screen) waitShown(what, want string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.shown(), want) {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: the screen does not show %q:\n%s", what, want, s.shown())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startHelix opens files in Helix in tmux, in the workspace, with eukhe
// lsp as the language server of .txt files.
func startHelix(t *testing.T, w testkit.Workspace, files ...string) screen {
	hx := helix(t)
	conf := filepath.Join(w.Config, "helix")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	languages := fmt.Sprintf(`[language-server.eukhe]
command = %q
args = ["lsp"]

[[language]]
name = "eukhe-text"
scope = "text.eukhe"
file-types = ["txt"]
roots = []
language-servers = ["eukhe"]
`, binary)
	if err := os.WriteFile(filepath.Join(conf, "languages.toml"), []byte(languages), 0o600); err != nil {
		t.Fatal(err)
	}
	s := screen{t: t, socket: filepath.Join(w.Run, "tmux")}
	env := w.Env("TERM=xterm-256color")
	var exports []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == "HOME" || strings.HasPrefix(k, "XDG_") || k == "PATH" || k == "EUKHE_LOG" {
			exports = append(exports, shellQuote(kv))
		}
	}
	var quoted []string
	for _, f := range files {
		quoted = append(quoted, shellQuote(f))
	}
	command := "env " + strings.Join(exports, " ") + " " + shellQuote(hx) + " " + strings.Join(quoted, " ")
	cmd := exec.Command("tmux", "-S", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "hx", "-x", "120", "-y", "30", "-c", w.Root, command)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	s.waitShown("Helix started", "NOR")
	waitEditorServer(t, w)
	return s
}

// waitEditorServer waits until Helix's eukhe lsp is up (its discovery
// file names the editor), so the agent attaches from its first call.
func waitEditorServer(t *testing.T, w testkit.Workspace) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(w.Run, "eukhe", "*.json"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), `"editor":"helix"`) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Helix's eukhe lsp did not come up (no discovery file in %s)", w.Run)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// agent is an MCP client attached through eukhe mcp in the workspace.
type agent struct {
	t      *testing.T
	cs     *mcp.ClientSession
	stderr *lockedBuffer
	run    string // the discovery's runtime directory
}

// lockedBuffer is eukhe mcp's stderr, written by its copier while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func attach(t *testing.T, w testkit.Workspace) agent {
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = w.Root, w.Env()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "helix-test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("eukhe mcp: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return agent{t: t, cs: cs, stderr: stderr, run: w.Run}
}

func (a agent) call(tool string, args map[string]any) string {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// discovery lists the editors' servers eukhe mcp could find.
func (a agent) discovery() string {
	out, _ := exec.Command("sh", "-c", "ls -la \"$1\"/eukhe; cat \"$1\"/eukhe/*.json; ps -eo pid,args | grep '[e]ukhe lsp'", "sh", a.run).CombinedOutput()
	return string(out)
}

// readUntil reads path until its rows hold want (Helix tells a change
// after its own short debounce).
func (a agent) readUntil(path, want string) string {
	a.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := a.call("read", map[string]any{"path": path})
		if strings.Contains(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("read %s never showed %q:\n%s\neukhe mcp:\n%s\n%s", path, want, got, a.stderr.String(), a.discovery())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var tagRe = regexp.MustCompile(`#([0-9a-f]+)\]`)

func tagOf(t *testing.T, read string) string {
	t.Helper()
	m := tagRe.FindStringSubmatch(read)
	if m == nil {
		t.Fatalf("no tag in the read:\n%s", read)
	}
	return m[1]
}

// The user types in Helix without saving; the attached agent reads the
// buffer's text, not the disk's; its edit of two open files lands in both
// buffers (the one shown shows it), and a read after it sees them.
func TestHelixReadsUnsavedTypingAndLandsATwoFileEdit(t *testing.T) {
	w := testkit.NewWorkspace(t, map[string]string{"a.txt": "a one\na two\na three\n", "b.txt": "b one\nb two\n"},
		`{"shell.autoEffects": ["read", "write"]}`)
	s := startHelix(t, w, "a.txt", "b.txt")
	s.keys("g", "g", "i")
	s.text("typed ")
	s.keys("Escape")
	s.waitShown("the typing", "typed a one")
	a := attach(t, w)
	read := a.readUntil("a.txt", "1:typed a one")
	if b, _ := os.ReadFile(filepath.Join(w.Root, "a.txt")); string(b) != "a one\na two\na three\n" {
		t.Fatalf("a.txt on disk changed: the typing was saved? %q", b)
	}
	rb := a.call("read", map[string]any{"path": "b.txt"})
	patch := fmt.Sprintf("[a.txt#%s]\n@@ 3\n+A THREE\n[b.txt#%s]\n@@ 1\n+B ONE\n", tagOf(t, read), tagOf(t, rb))
	edit := a.call("edit", map[string]any{"patch": patch})
	if !strings.HasPrefix(edit, "Applied to a.txt#") || !strings.Contains(edit, "b.txt#") || strings.Contains(edit, "NOT") {
		t.Fatalf("the two-file edit said:\n%s", edit)
	}
	s.waitShown("the edit in the shown buffer", "A THREE")
	if shown := s.shown(); !strings.Contains(shown, "typed a one") {
		t.Errorf("the user's typing is gone from the screen after the edit:\n%s", shown)
	}
	a.readUntil("a.txt", "1:typed a one\n2:a two\n3:A THREE\n")
	a.readUntil("b.txt", "1:B ONE\n2:b two\n")
}

// The user types on line 1 while the agent edits line 3 of the same
// buffer, again and again: no key is lost, every edit's text is in the
// buffer, and no reply says an edit did not land (one that lands is
// rebased over the typing when Helix refuses it as stale).
func TestHelixTypingOnAnotherLineWhileTheAgentEditsLosesNothing(t *testing.T) {
	w := testkit.NewWorkspace(t, map[string]string{"a.txt": "a one\na two\na three\n"}, `{"shell.autoEffects": ["read", "write"]}`)
	s := startHelix(t, w, "a.txt")
	a := attach(t, w)
	a.readUntil("a.txt", "1:a one")
	s.keys("g", "g", "A") // append at the end of line 1
	done := make(chan struct{})
	typed := 0
	go func() {
		defer close(done)
		for range 40 {
			s.text("k")
			typed++
			time.Sleep(30 * time.Millisecond)
		}
	}()
	var replies []string
	for n := 1; n <= 6; n++ {
		r := a.call("read", map[string]any{"path": "a.txt"})
		reply := a.call("edit", map[string]any{"patch": fmt.Sprintf("[a.txt#%s]\n@@ 3\n+edit %d\n", tagOf(t, r), n)})
		replies = append(replies, reply)
		if strings.Contains(reply, "NOT applied") {
			t.Errorf("edit %d, on a line the user never typed on, said:\n%s", n, reply)
		}
	}
	<-done
	s.keys("Escape")
	want := "a one" + strings.Repeat("k", typed)
	a.readUntil("a.txt", "1:"+want+"\n2:a two\n3:edit ")
	t.Logf("%d keys typed; replies: %q", typed, replies)
}
