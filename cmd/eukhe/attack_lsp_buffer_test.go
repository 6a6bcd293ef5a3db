package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// An editor buffer is judged by the path it has now (issue 20 class 7),
// through the real eukhe lsp: a client that keeps buffers, applies
// workspace edits to them, saves them by name as an editor does (following
// links), and answers eukhe/approve. The agent's edits come through
// eukhe/tool; what it does besides (a bash step the gate lets run, or a
// process it left running) is done by the test at the moment it matters.

// lspEditor is an editor client of a real eukhe lsp process.
type lspEditor struct {
	t    *testing.T
	root string
	conn jsonrpc2.Conn
	ctx  context.Context

	mu      sync.Mutex
	bufs    map[string]string // text by path
	vers    map[string]int32
	onApply func()        // runs once, as the next edit reaches the editor
	answer  func() string // eukhe/approve
	asked   int
}

func startLSPEditor(t *testing.T, settings string) *lspEditor {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	mustDo(t, os.MkdirAll(filepath.Join(cfg, "eukhe"), 0o700))
	mustDo(t, os.WriteFile(filepath.Join(cfg, "eukhe", "settings.json"), []byte(settings), 0o600))
	e, _ := startLSPEditorOn(t, root, home, nil, nil, nil)
	return e
}

// startLSPEditorOn starts eukhe lsp on root with home's configuration and
// state, env added, its standard error to stderr (nil: none), and
// initializes it as an editor would.
func startLSPEditorOn(t *testing.T, root, home string, env []string, stderr io.Writer, wrapOut func(io.ReadCloser) io.ReadCloser) (*lspEditor, *exec.Cmd) {
	cfg := filepath.Join(home, "config")
	cmd := exec.Command(binary, "lsp", "--root", root)
	cmd.Dir = root
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stderr = stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	mustDo(t, cmd.Start())
	if wrapOut != nil {
		out = wrapOut(out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	e := &lspEditor{t: t, root: root, ctx: ctx, bufs: map[string]string{}, vers: map[string]int32{}, answer: func() string { return "deny" }}
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{out, in}))
	e.conn.Go(ctx, e.handle)
	t.Cleanup(func() {
		e.conn.Call(context.Background(), lsproto.MethodShutdown, nil, nil)
		e.conn.Notify(context.Background(), lsproto.MethodExit, nil)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("eukhe lsp did not exit")
		}
		cancel()
	})
	ex := map[string]any{"eukhe": map[string]any{"kind": "test", "methods": []string{protocol.MethodSaveDocuments, protocol.MethodApprove}}}
	var res json.RawMessage
	if _, err := e.conn.Call(ctx, lsproto.MethodInitialize, map[string]any{
		"rootUri": "file://" + root, "clientInfo": map[string]any{"name": "testeditor"},
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}, "experimental": ex},
	}, &res); err != nil {
		t.Fatal(err)
	}
	e.conn.Notify(ctx, lsproto.MethodInitialized, map[string]any{})
	return e, cmd
}

func (e *lspEditor) path(name string) string { return filepath.Join(e.root, name) }

func (e *lspEditor) put(name, text string) {
	mustDo(e.t, os.MkdirAll(filepath.Dir(e.path(name)), 0o755))
	mustDo(e.t, os.WriteFile(e.path(name), []byte(text), 0o644))
}

// open opens a buffer holding text.
func (e *lspEditor) open(name, text string) {
	p := e.path(name)
	e.mu.Lock()
	e.bufs[p], e.vers[p] = text, 1
	e.mu.Unlock()
	e.conn.Notify(e.ctx, lsproto.MethodTextDocumentDidOpen, map[string]any{"textDocument": map[string]any{
		"uri": "file://" + p, "languageId": "plaintext", "version": 1, "text": text}})
}

func (e *lspEditor) tool(name string, args any) (string, bool) {
	e.t.Helper()
	a, _ := json.Marshal(args)
	var r protocol.ToolResult
	if _, err := e.conn.Call(e.ctx, protocol.MethodTool, protocol.ToolParams{Name: name, Arguments: a}, &r); err != nil {
		e.t.Fatalf("eukhe/tool %s: %v", name, err)
	}
	return r.Text, r.IsError
}

// handle is the editor's side: applyEdit on its buffers (ASCII text, so a
// UTF-16 position is a byte in its line), saveDocuments by name, approve.
func (e *lspEditor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case lsproto.MethodWorkspaceApplyEdit:
		var p struct {
			Edit struct {
				DocumentChanges []struct {
					TextDocument struct {
						URI string `json:"uri"`
					} `json:"textDocument"`
					Edits []struct {
						Range   lsproto.Range `json:"range"`
						NewText string        `json:"newText"`
					} `json:"edits"`
				} `json:"documentChanges"`
			} `json:"edit"`
		}
		json.Unmarshal(req.Params(), &p)
		e.mu.Lock()
		f := e.onApply
		e.onApply = nil
		e.mu.Unlock()
		if f != nil {
			f()
		}
		for _, dc := range p.Edit.DocumentChanges {
			path := strings.TrimPrefix(dc.TextDocument.URI, "file://")
			e.mu.Lock()
			text := e.bufs[path]
			for i := len(dc.Edits) - 1; i >= 0; i-- { // the server sends them in order, none overlapping
				x := dc.Edits[i]
				from, to := offsetOf(text, x.Range.Start), offsetOf(text, x.Range.End)
				text = text[:from] + x.NewText + text[to:]
			}
			e.bufs[path] = text
			e.vers[path]++
			v := e.vers[path]
			e.mu.Unlock()
			e.conn.Notify(ctx, lsproto.MethodTextDocumentDidChange, map[string]any{
				"textDocument":   map[string]any{"uri": dc.TextDocument.URI, "version": v},
				"contentChanges": []map[string]any{{"text": text}}})
		}
		return map[string]any{"applied": true}, nil
	case protocol.MethodSaveDocuments:
		var p protocol.SaveDocumentsParams
		json.Unmarshal(req.Params(), &p)
		res := protocol.SaveDocumentsResult{Saved: []string{}}
		for _, u := range p.URIs {
			path := strings.TrimPrefix(u, "file://")
			e.mu.Lock()
			text, ok := e.bufs[path]
			e.mu.Unlock()
			if ok && os.WriteFile(path, []byte(text), 0o644) == nil {
				res.Saved = append(res.Saved, u)
			}
		}
		return res, nil
	case protocol.MethodApprove:
		e.mu.Lock()
		e.asked++
		a := e.answer
		e.mu.Unlock()
		return protocol.ApproveResult{Answer: a()}, nil
	}
	return nil, nil
}

func offsetOf(text string, p lsproto.Position) int {
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i := 0; i < int(p.Line) && i < len(lines); i++ {
		off += len(lines[i])
	}
	return min(off+int(p.Character), len(text))
}

func (e *lspEditor) buffersHold(s string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, b := range e.bufs {
		if strings.Contains(b, s) {
			return true
		}
	}
	return false
}

const plainGitConfig = "[core]\n\trepositoryformatversion = 0\n"

func TestAttacks_an_editor_buffer_is_judged_by_the_path_it_has_now(t *testing.T) {
	t.Parallel()
	swap := func(e *lspEditor, name, target string) {
		mustDo(t, os.Rename(e.path(name), e.path(name)+".old"))
		mustDo(t, os.Symlink(target, e.path(name)))
	}
	repoint := func(e *lspEditor) {
		mustDo(t, os.Remove(e.path("lnk")))
		mustDo(t, os.Symlink(".git", e.path("lnk")))
	}
	rows := []struct {
		name           string
		setup          func(e *lspEditor) string
		before, during func(e *lspEditor)
		victim         string
	}{
		{"a directory link repointed into .git; the edit names the buffer's real path at didOpen",
			func(e *lspEditor) string {
				e.put("real/config", "benign\n")
				mustDo(t, os.Symlink("real", e.path("lnk")))
				e.open("lnk/config", "benign\n")
				return "real/config"
			}, repoint, nil, ".git/config"},
		{"the file replaced by a link into .git between the edit and the save",
			func(e *lspEditor) string { e.put("config", "benign\n"); e.open("config", "benign\n"); return "config" },
			nil, func(e *lspEditor) { swap(e, "config", ".git/config") }, ".git/config"},
		{"a directory under the buffer renamed, .git linked in its place, between the edit and the save",
			func(e *lspEditor) string {
				e.put("d/config", "benign\n")
				e.open("d/config", "benign\n")
				return "d/config"
			},
			nil, func(e *lspEditor) { swap(e, "d", ".git") }, ".git/config"},
		{"a directory link on the buffer's name repointed between the edit and the save",
			func(e *lspEditor) string {
				e.put("real/config", "benign\n")
				mustDo(t, os.Symlink("real", e.path("lnk")))
				e.open("lnk/config", "benign\n")
				return "lnk/config"
			}, nil, repoint, ".git/config"},
		{"an unsaved new buffer's name planted as a dangling link to a hook",
			func(e *lspEditor) string { e.open("run.sh", "#!/bin/sh\necho benign\n"); return "run.sh" },
			nil, func(e *lspEditor) { mustDo(t, os.Symlink(".git/hooks/pre-commit", e.path("run.sh"))) }, ".git/hooks/pre-commit"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			e := startLSPEditor(t, `{"shell.autoEffects": ["read", "write"]}`)
			e.put(".git/config", plainGitConfig)
			e.put(".git/HEAD", "ref: refs/heads/main\n")
			mustDo(t, os.MkdirAll(e.path(".git/hooks"), 0o755))
			name := r.setup(e)
			text, failed := e.tool("read", map[string]any{"path": name})
			if failed {
				t.Fatalf("read %s: %s", name, text)
			}
			head, _, _ := strings.Cut(text, "\n")
			tag := head[strings.LastIndex(head, "#")+1 : len(head)-1]
			if r.before != nil {
				r.before(e)
			}
			if r.during != nil {
				e.mu.Lock()
				e.onApply = func() { r.during(e) }
				e.mu.Unlock()
			}
			text, failed = e.tool("edit", map[string]any{"patch": "[" + name + "#" + tag + "]\n@@ 1\n+[core]\n+\tfsmonitor = echo pwned\n"})
			b, err := os.ReadFile(e.path(r.victim))
			if (r.victim == ".git/config" && string(b) != plainGitConfig) || (r.victim != ".git/config" && err == nil) {
				t.Errorf("%s was written:\n%s\nreply: %s", r.victim, b, text)
			}
			if !failed || !strings.Contains(text, "close and reopen it in the editor, then retry") {
				t.Errorf("the reply does not refuse the edit saying to reopen the buffer:\n%s", text)
			}
			if e.buffersHold("fsmonitor") {
				t.Error("the agent's text stays in a buffer, for the user's next save to write")
			}
		})
	}
}

// A closed file reached through the editor's store follows no link swapped
// in after the gate's judgment: the swap runs while the user is asked.
func TestAttacks_a_closed_file_through_eukhe_lsp_follows_no_link_swapped_after_the_judgment(t *testing.T) {
	t.Parallel()
	e := startLSPEditor(t, `{"shell.autoEffects": []}`)
	out, _ := filepath.EvalSymlinks(t.TempDir())
	secret := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(secret, "notes"), []byte("CANARY-behind-the-link\n"), 0o600))
	mustDo(t, os.MkdirAll(filepath.Join(out, "d"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(out, "d", "notes"), []byte("benign\n"), 0o644))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": filepath.Join(out, "d", "notes")}},
		{"grep", map[string]any{"pattern": "CANARY", "path": filepath.Join(out, "d")}},
		{"glob", map[string]any{"pattern": "**", "path": filepath.Join(out, "d")}},
	} {
		e.mu.Lock()
		e.answer = func() string {
			mustDo(t, os.Rename(filepath.Join(out, "d"), filepath.Join(out, "d.old")))
			mustDo(t, os.Symlink(secret, filepath.Join(out, "d")))
			return "approve"
		}
		e.mu.Unlock()
		text, _ := e.tool(c.tool, c.args)
		if strings.Contains(text, "CANARY") || !strings.Contains(text, "symbolic link") {
			t.Errorf("%s %v through the link swapped in after the judgment:\n%s", c.tool, c.args, text)
		}
		os.Remove(filepath.Join(out, "d"))
		mustDo(t, os.Rename(filepath.Join(out, "d.old"), filepath.Join(out, "d")))
	}
}

// Controls: an edit of an open buffer and of a closed file (by a link on
// the way that stays) run unasked and land; the buffer is saved.
func TestAnEditorBufferAndAClosedFileAreEditedUnasked(t *testing.T) {
	t.Parallel()
	e := startLSPEditor(t, `{"shell.autoEffects": ["read", "write"]}`)
	e.put("open.txt", "one\n")
	e.put("sub/closed.txt", "two\n")
	mustDo(t, os.Symlink("sub", e.path("via")))
	e.open("open.txt", "one\n")
	for _, name := range []string{"open.txt", "via/closed.txt"} {
		text, _ := e.tool("read", map[string]any{"path": name})
		head, _, _ := strings.Cut(text, "\n")
		tag := head[strings.LastIndex(head, "#")+1 : len(head)-1]
		if text, failed := e.tool("edit", map[string]any{"patch": "[" + name + "#" + tag + "]\n@@ 1\n+edited\n"}); failed || strings.Contains(text, "warning") {
			t.Errorf("edit of %s: %s", name, text)
		}
	}
	for _, name := range []string{"open.txt", "sub/closed.txt"} {
		if b, _ := os.ReadFile(e.path(name)); string(b) != "edited\n" {
			t.Errorf("%s holds %q", name, b)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.asked != 0 {
		t.Errorf("asked %d times", e.asked)
	}
}
