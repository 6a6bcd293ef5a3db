package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/protocol"
)

// An editor buffer is judged by the path it has now (issue 20 class 7).
// Each row opens a buffer, lets the agent (here: the test, standing for a
// bash step the gate lets run, or a process it left running) change what
// the buffer's name resolves to at one moment — before the edit, or
// between the edit reaching the editor and the save — and edits it
// through eukhe/tool. .git/config and the hooks must stay as they were,
// and the reply must say to reopen the buffer.

const gitConfig = "[core]\n\trepositoryformatversion = 0\n"

func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// swapToLink replaces the entry at name by a symbolic link to target.
func (e *fakeEditor) swapToLink(name, target string) {
	p := e.path(name)
	mustOK(e.t, os.Rename(p, p+".old"))
	mustOK(e.t, os.Symlink(target, p))
}

func TestAttacks_an_open_buffer_is_judged_by_the_path_it_has_now(t *testing.T) {
	rows := []struct {
		name string
		// setup writes the files and opens the buffer; it gives the path
		// the agent reads and edits.
		setup func(e *fakeEditor) string
		// before runs after the read, before the edit; during runs as the
		// editor gets the edit, before the save.
		before, during func(e *fakeEditor)
		victim         string // the file that must stay as it was
	}{
		{name: "a directory link on the way repointed into .git; the edit names the old real path",
			setup: func(e *fakeEditor) string {
				e.put("real/config", "benign\n")
				mustOK(t, os.Symlink("real", e.path("lnk")))
				e.open("lnk/config")
				return "real/config"
			},
			before: func(e *fakeEditor) {
				mustOK(t, os.Remove(e.path("lnk")))
				mustOK(t, os.Symlink(".git", e.path("lnk")))
			},
			victim: ".git/config"},
		{name: "the file itself replaced by a link into .git between the edit and the save",
			setup: func(e *fakeEditor) string {
				e.put("config", "benign\n")
				e.open("config")
				return "config"
			},
			during: func(e *fakeEditor) { e.swapToLink("config", ".git/config") },
			victim: ".git/config"},
		{name: "a directory under the buffer renamed and .git linked in its place between the edit and the save",
			setup: func(e *fakeEditor) string {
				e.put("d/config", "benign\n")
				e.open("d/config")
				return "d/config"
			},
			during: func(e *fakeEditor) { e.swapToLink("d", ".git") },
			victim: ".git/config"},
		{name: "an unsaved new buffer's name planted as a dangling link to a hook between the edit and the save",
			setup: func(e *fakeEditor) string {
				e.openText("run.sh", "#!/bin/sh\necho benign\n")
				return "run.sh"
			},
			during: func(e *fakeEditor) { mustOK(t, os.Symlink(".git/hooks/pre-commit", e.path("run.sh"))) },
			victim: ".git/hooks/pre-commit"},
		{name: "a directory link repointed into .git after the read; the edit names the buffer's own name",
			setup: func(e *fakeEditor) string {
				e.put("real/config", "benign\n")
				mustOK(t, os.Symlink("real", e.path("lnk")))
				e.open("lnk/config")
				return "lnk/config"
			},
			during: func(e *fakeEditor) {
				mustOK(t, os.Remove(e.path("lnk")))
				mustOK(t, os.Symlink(".git", e.path("lnk")))
			},
			victim: ".git/config"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			e := newEditor(t, editorOpts{saves: true})
			e.put(".git/config", gitConfig)
			e.put(".git/HEAD", "ref: refs/heads/main\n")
			mustOK(t, os.MkdirAll(e.path(".git/hooks"), 0o755))
			name := r.setup(e)
			read := e.tool("read", map[string]any{"path": name})
			if read.IsError {
				t.Fatalf("read %s: %s", name, read.Text)
			}
			tag := tagOf(t, read.Text)
			if r.before != nil {
				r.before(e)
			}
			if r.during != nil {
				e.set(func(e *fakeEditor) {
					done := false
					e.beforeApply = func(int) {
						if !done {
							done = true
							r.during(e)
						}
					}
				})
			}
			got := e.tool("edit", map[string]any{"patch": "[" + name + "#" + tag + "]\n@@ 1\n+[core]\n+\tfsmonitor = echo pwned\n"})
			b, err := os.ReadFile(e.path(r.victim))
			switch {
			case r.victim == ".git/config" && string(b) != gitConfig:
				t.Errorf("%s was written:\n%s\nreply: %s", r.victim, b, got.Text)
			case r.victim != ".git/config" && err == nil:
				t.Errorf("%s was planted:\n%s\nreply: %s", r.victim, b, got.Text)
			}
			if !got.IsError || !strings.Contains(got.Text, "close and reopen it in the editor, then retry") || !strings.Contains(got.Text, "not "+e.root) {
				t.Errorf("the edit's reply does not refuse it saying to reopen the buffer:\n%s", got.Text)
			}
			for p, buf := range e.bufs {
				if strings.Contains(buf.text, "fsmonitor") {
					t.Errorf("the agent's text stays in the buffer %s, for the user's next save to write", p)
				}
			}
		})
	}
}

// The store refuses to hand out an open document whose name resolves
// elsewhere now: a read through the old real path says to reopen it.
func TestAnOpenBufferWhoseNameMovedIsNotServed(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put(".git/config", gitConfig)
	e.put("real/config", "benign\n")
	mustOK(t, os.Symlink("real", e.path("lnk")))
	e.openText("lnk/config", "unsaved\n")
	if got := e.tool("read", map[string]any{"path": "real/config"}); got.IsError || !strings.Contains(got.Text, "1:unsaved") {
		t.Fatalf("read through the real path while the link stands:\n%s", got.Text)
	}
	mustOK(t, os.Remove(e.path("lnk")))
	mustOK(t, os.Symlink(".git", e.path("lnk")))
	for _, c := range []struct{ tool, path string }{{"read", "real/config"}, {"grep", "real"}} {
		args := map[string]any{"path": c.path}
		if c.tool == "grep" {
			args["pattern"] = "unsaved"
		}
		got := e.tool(c.tool, args)
		if strings.Contains(got.Text, "1:unsaved") {
			t.Errorf("%s %s served the buffer whose name now resolves into .git:\n%s", c.tool, c.path, got.Text)
		}
	}
	got := e.tool("read", map[string]any{"path": "real/config"})
	if !got.IsError || !strings.Contains(got.Text, filepath.Join(e.root, ".git", "config")) || !strings.Contains(got.Text, "close and reopen it in the editor") {
		t.Errorf("read of the moved buffer:\n%s", got.Text)
	}
	// reopened, it is the file its name is now
	e.close("lnk/config")
	e.open("lnk/config")
	if got := e.tool("read", map[string]any{"path": "real/config"}); got.IsError || !strings.Contains(got.Text, "1:benign") {
		t.Errorf("read of real/config after the buffer was reopened:\n%s", got.Text)
	}
}

// A closed file reached through the editor's store is read as the disk
// store reads it: through no link, so a directory swapped for a link into
// ~/.ssh after the gate judged the path reads nothing. The swap is made
// while the user is asked (the read is outside the workspace), that is
// after the judgment and before the read.
func TestAttacks_a_closed_file_through_the_editor_store_follows_no_link_swapped_after_the_judgment(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "approve" }}
	e := dialogEditor(t, d, editorOpts{env: settingsEnv(t, `{"shell.autoEffects": []}`), methods: []string{protocol.MethodApprove}})
	home := e.srv.opts.Env["HOME"]
	mustOK(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	mustOK(t, os.WriteFile(filepath.Join(home, ".ssh", "notes"), []byte("CANARY-key\n"), 0o600))
	out, _ := filepath.EvalSymlinks(t.TempDir())
	mustOK(t, os.MkdirAll(filepath.Join(out, "d"), 0o755))
	mustOK(t, os.WriteFile(filepath.Join(out, "d", "notes"), []byte("benign\n"), 0o644))
	swap := func() {
		mustOK(t, os.Rename(filepath.Join(out, "d"), filepath.Join(out, "d.old")))
		mustOK(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(out, "d")))
	}
	unswap := func() {
		os.Remove(filepath.Join(out, "d"))
		mustOK(t, os.Rename(filepath.Join(out, "d.old"), filepath.Join(out, "d")))
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": filepath.Join(out, "d", "notes")}},
		{"read", map[string]any{"path": filepath.Join(out, "d")}},
		{"grep", map[string]any{"pattern": "CANARY", "path": filepath.Join(out, "d")}},
		{"grep", map[string]any{"pattern": "CANARY", "path": filepath.Join(out, "d", "notes")}},
	} {
		d.mu.Lock()
		d.answer = func(int) string { swap(); return "approve" }
		d.mu.Unlock()
		got := e.tool(c.tool, c.args)
		if strings.Contains(got.Text, "CANARY") || !strings.Contains(got.Text, "a symbolic link on the way") {
			t.Errorf("%s %v read through the link swapped in after the judgment:\n%s", c.tool, c.args, got.Text)
		}
		unswap()
	}
	d.mu.Lock()
	n := len(d.asked)
	d.mu.Unlock()
	if n < 5 {
		t.Errorf("asked %d times; the swap runs while the user is asked", n)
	}
}

// Controls: an edit of an open buffer and of a closed file run unasked,
// land, and the buffer is saved.
func TestAnEditOfAnOpenBufferAndOfAClosedFileRunUnasked(t *testing.T) {
	d := &dialogs{answer: func(int) string { return "deny" }}
	e := dialogEditor(t, d, editorOpts{saves: true, env: settingsEnv(t, `{}`), methods: []string{protocol.MethodApprove}})
	e.put("open.txt", "one\n")
	e.put("sub/closed.txt", "two\n")
	mustOK(t, os.Symlink("sub", e.path("via")))
	e.open("open.txt")
	e.openText("fresh.txt", "new\n")
	for _, name := range []string{"open.txt", "sub/closed.txt", "via/closed.txt", "fresh.txt"} {
		read := e.tool("read", map[string]any{"path": name})
		got := e.tool("edit", map[string]any{"patch": "[" + name + "#" + tagOf(t, read.Text) + "]\n@@ 1\n+edited " + name + "\n"})
		if got.IsError || !strings.HasPrefix(got.Text, "Applied to") || (name != "fresh.txt" && strings.Contains(got.Text, "warning")) {
			t.Errorf("edit of %s: %s", name, got.Text)
		}
	}
	if e.disk("open.txt") != "edited open.txt\n" || e.buf("fresh.txt") != "edited fresh.txt\n" || e.disk("sub/closed.txt") != "edited via/closed.txt\n" {
		t.Errorf("on disk, in the new buffer: %q %q %q", e.disk("open.txt"), e.buf("fresh.txt"), e.disk("sub/closed.txt"))
	}
	if g := e.tool("grep", map[string]any{"pattern": "edited"}); g.IsError || !strings.Contains(g.Text, "open.txt") {
		t.Errorf("grep: %s", g.Text)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.asked) != 0 {
		t.Errorf("asked: %+v", d.asked)
	}
}
