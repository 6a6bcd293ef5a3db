package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// Class 7 of the trust boundaries: an editor buffer is judged by the path
// it has now. The agent controls every directory on the way between
// didOpen and an edit, and between an edit and the save eukhe asks for;
// each row repoints something on the way so that a buffer's name leads
// into .git, and no byte may reach .git/config, through the editor's
// buffer or its save.

const bufGitConfig = "[core]\n\trepositoryformatversion = 0\n"

// careful is an editor whose user auto set is read and write: protected
// asks (and, with no one to answer, is refused).
func carefulEditor(t *testing.T, o editorOpts) *fakeEditor {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "eukhe"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "eukhe", "settings.json"), []byte(`{"shell.autoEffects": ["read", "write"]}`), 0o600)
	o.env = map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, ".state")}
	o.saves = true
	e := newEditor(t, o)
	e.put(".git/config", bufGitConfig)
	e.put("safe/config", "one\ntwo\n")
	return e
}

func repointLink(t *testing.T, e *fakeEditor, link, target string) {
	t.Helper()
	p := e.path(link)
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func (e *fakeEditor) bufGitConfigKept(t *testing.T) {
	t.Helper()
	if got := e.disk(".git/config"); got != bufGitConfig {
		t.Fatalf(".git/config was written:\n%s", got)
	}
}

// A buffer opened through a link: the link is repointed at .git, and the
// agent edits the file the buffer was (its old real path). Before, the
// overlay found the buffer by the real path recorded at didOpen, the
// edit landed in it, and the editor saved it into .git/config.
func TestAttacks_buffer_judged_by_its_path_now_link_repointed(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	repointLink(t, e, "link", "safe")
	e.open("link/config")
	e.sync() // the server has taken the didOpen
	tag := tagOf(t, e.tool("read", map[string]any{"path": "safe/config"}).Text)
	repointLink(t, e, "link", ".git")
	got := e.tool("edit", map[string]any{"patch": "[safe/config#" + tag + "]\n@@ 1\n+[alias] x = !sh -c pwned\n"})
	if !got.IsError || !strings.Contains(got.Text, "now resolves to") || !strings.Contains(got.Text, "reopen it in the editor") {
		t.Errorf("the edit was not refused as moved: %s", got.Text)
	}
	if r := e.tool("read", map[string]any{"path": "safe/config"}); strings.Contains(r.Text, "repositoryformatversion") {
		t.Errorf("a read through the buffer served .git/config: %s", r.Text)
	}
	e.bufGitConfigKept(t)
	// The agent names the buffer's own name: the gate judges .git/config.
	got = e.tool("write", map[string]any{"path": "link/config", "content": "pwned\n"})
	if !got.IsError {
		t.Errorf("a write of link/config (now .git/config) ran unasked: %s", got.Text)
	}
	e.bufGitConfigKept(t)
}

// The buffer's own file is replaced by a link into .git.
func TestAttacks_buffer_judged_by_its_path_now_file_replaced_by_link(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	e.open("safe/config")
	e.sync() // the server has taken the didOpen
	tag := tagOf(t, e.tool("read", map[string]any{"path": "safe/config"}).Text)
	repointLink(t, e, "safe/config", "../.git/config")
	got := e.tool("edit", map[string]any{"patch": "[safe/config#" + tag + "]\n@@ 1\n+pwned\n"})
	if !got.IsError {
		t.Errorf("the edit ran unasked: %s", got.Text)
	}
	e.bufGitConfigKept(t)
}

// A directory under the open buffer is renamed away and a link into .git
// put in its place; the agent edits the file where it went.
func TestAttacks_buffer_judged_by_its_path_now_directory_renamed(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	e.put("dir/config", "one\ntwo\n")
	e.open("dir/config")
	e.sync() // the server has taken the didOpen
	if err := os.Rename(e.path("dir"), e.path("dir2")); err != nil {
		t.Fatal(err)
	}
	repointLink(t, e, "dir", ".git")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "dir2/config"}).Text)
	got := e.tool("edit", map[string]any{"patch": "[dir2/config#" + tag + "]\n@@ 1\n+ONE\n"})
	if got.IsError {
		t.Fatalf("the edit of dir2/config (a plain file now) was refused: %s", got.Text)
	}
	if e.disk("dir2/config") != "ONE\ntwo\n" {
		t.Errorf("dir2/config on disk: %q", e.disk("dir2/config"))
	}
	if b := e.buf("dir/config"); strings.Contains(b, "ONE") {
		t.Errorf("the edit went to the buffer dir/config, now .git/config: %q", b)
	}
	e.bufGitConfigKept(t)
	// and the buffer itself, read by its name, is refused as moved
	if r := e.tool("read", map[string]any{"path": "dir/config"}); strings.Contains(r.Text, "one\n") && !r.IsError {
		t.Errorf("the moved buffer was served: %s", r.Text)
	}
}

// Between the edit and the save: the link is repointed while the editor
// applies the edit; eukhe must not ask it to save the buffer, whose name
// now leads into .git.
func TestAttacks_save_judged_by_its_path_now(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	repointLink(t, e, "link", "safe")
	e.open("link/config")
	e.sync() // the server has taken the didOpen
	tag := tagOf(t, e.tool("read", map[string]any{"path": "link/config"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(int) { repointLink(t, e, "link", ".git") }
	})
	got := e.tool("edit", map[string]any{"patch": "[link/config#" + tag + "]\n@@ 1\n+[alias] x = !pwned\n"})
	if !strings.Contains(got.Text, "NOT applied") || !strings.Contains(got.Text, "not asked to save it") {
		t.Errorf("the reply does not say the buffer was not saved and the edit taken back: %s", got.Text)
	}
	e.mu.Lock()
	saved := append([]string(nil), e.saved...)
	e.mu.Unlock()
	if len(saved) > 0 {
		t.Errorf("the editor was asked to save %v", saved)
	}
	e.bufGitConfigKept(t)
}

// Controls: an open buffer and a closed file are edited unasked, and the
// buffer is saved.
func TestAttacks_buffer_controls_still_run(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	repointLink(t, e, "link", "safe")
	e.open("link/config")
	e.sync() // the server has taken the didOpen
	e.put("closed.txt", "a\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "link/config"}).Text)
	if got := e.tool("edit", map[string]any{"patch": "[link/config#" + tag + "]\n@@ 1\n+ONE\n"}); got.IsError {
		t.Fatalf("an edit of an open buffer through a steady link: %s", got.Text)
	}
	if e.disk("safe/config") != "ONE\ntwo\n" {
		t.Errorf("not saved: %q", e.disk("safe/config"))
	}
	ct := tagOf(t, e.tool("read", map[string]any{"path": "closed.txt"}).Text)
	if got := e.tool("edit", map[string]any{"patch": "[closed.txt#" + ct + "]\n@@ 1\n+A\n"}); got.IsError || e.disk("closed.txt") != "A\n" {
		t.Fatalf("an edit of a closed file: %s", got.Text)
	}
	if got := e.tool("grep", map[string]any{"pattern": "ONE"}); got.IsError || !strings.Contains(got.Text, "config") {
		t.Errorf("grep through the editor's store: %s", got.Text)
	}
}

// A closed file reached through the editor's store is read with no link
// on the way, as the disk store reads it: a link swapped in after the
// gate judged the real path is refused, never followed.
func TestEditorStoreReadsClosedFilesWithoutFollowingLinks(t *testing.T) {
	e := carefulEditor(t, editorOpts{})
	st := &store{s: e.srv}
	var _ docs.Store = st
	judged := e.path("safe/config")   // what the gate gave
	repointLink(t, e, "safe", ".git") // then swapped
	if snap, err := st.ReadNoLinks(judged); !errors.Is(err, docs.ErrLinkBelow) {
		t.Errorf("read through a swapped link: %q %v", snap.Data, err)
	}
	if _, err := st.OpenTree(e.path("safe"), true); !errors.Is(err, docs.ErrLinkBelow) {
		t.Errorf("a walk of a swapped directory opened: %v", err)
	}
}
