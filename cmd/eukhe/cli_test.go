package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The CLI end to end: the built binary on real temp directories.

var binary string // the eukhe binary TestMain builds

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, ".", &binary) }

// ran is one run of the binary.
type ran struct {
	stdout, stderr string
	code           int
}

func eukhe(t *testing.T, stdin string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	return ranOf(t, cmd)
}

// ranOf runs cmd and gives what it wrote and its exit status; a command
// that could not run fails the test.
func ranOf(t testing.TB, cmd *exec.Cmd) ran {
	t.Helper()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := ran{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %q: %v", cmd.Args, err)
	}
	return r
}

// ws is a workspace: a root directory and a session file beside it.
type ws struct {
	t             *testing.T
	root, session string
}

func newWS(t *testing.T) *ws {
	d := t.TempDir()
	root := filepath.Join(d, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return &ws{t: t, root: root, session: filepath.Join(d, "session.json")}
}

func (w *ws) put(name string, b []byte, mode fs.FileMode) {
	w.t.Helper()
	p := filepath.Join(w.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		w.t.Fatal(err)
	}
}

func (w *ws) get(name string) []byte {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.root, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

// tool runs `eukhe tool NAME --root ROOT --session FILE ARGS`.
func (w *ws) tool(name string, args any) ran {
	w.t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		w.t.Fatal(err)
	}
	return eukhe(w.t, "", "tool", name, "--root", w.root, "--session", w.session, string(b))
}

var headerTag = regexp.MustCompile(`^\[([^\]#]+)#([0-9a-f]{8})\]\n`)

// read reads a file and gives the tag its header shows.
func (w *ws) read(path string) string {
	w.t.Helper()
	r := w.tool("read", map[string]any{"path": path})
	if r.code != 0 {
		w.t.Fatalf("read %s: exit %d\n%s%s", path, r.code, r.stdout, r.stderr)
	}
	m := headerTag.FindStringSubmatch(r.stdout)
	if m == nil || m[1] != path {
		w.t.Fatalf("read %s: no [path#TAG] header:\n%s", path, r.stdout)
	}
	return m[2]
}

func TestCLI_help(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"tool", "--help"}, {"tool", "read", "--help"}} {
		r := eukhe(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "eukhe tool NAME") {
			t.Errorf("eukhe %v: exit %d, stdout:\n%s", args, r.code, r.stdout)
		}
	}
	r := eukhe(t, "", "tool", "--help")
	for _, want := range []string{"--root", "--session", "Exit status"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("tool --help does not mention %q:\n%s", want, r.stdout)
		}
	}
	// each tool of the roster has one entry under Tools, in the roster's
	// order; the command's own list of them names each too
	_, tools, _ := strings.Cut(r.stdout, "\nTools:\n")
	entry := regexp.MustCompile(`(?m)^  ([a-z]+) +\{`)
	var listed []string
	for _, m := range entry.FindAllStringSubmatch(tools, -1) {
		listed = append(listed, m[1])
	}
	if got, want := strings.Join(listed, " "), strings.Join(rosterNames(t), " "); got != want {
		t.Errorf("tool --help lists %q; the roster is %q", got, want)
	}
	which := eukhe(t, "", "tool")
	for _, name := range rosterNames(t) {
		if !strings.Contains(which.stderr, name) {
			t.Errorf("eukhe tool without a name does not name %s:\n%s", name, which.stderr)
		}
	}
}

// rosterNames are the tools eukhe mcp lists, in order: the unknown tool's
// message names them.
func rosterNames(t *testing.T) []string {
	t.Helper()
	r := eukhe(t, "", "tool", "nosuchtool", "--root", t.TempDir(), "{}")
	_, list, ok := strings.Cut(strings.TrimSpace(r.stderr), "the tools are ")
	list, _, _ = strings.Cut(list, " (")
	if !ok {
		t.Fatalf("the unknown tool's message names no tools:\n%s", r.stderr)
	}
	names := strings.Split(list, ", ")
	if len(names) < 8 {
		t.Fatalf("the roster is %q", names)
	}
	return names
}

// A tool's name or arguments wrong is said in one line that names the
// problem and where the arguments are described; the whole usage is for
// the command's own mistakes.
func TestCLI_a_tool_mistake_is_said_in_one_line(t *testing.T) {
	root := t.TempDir()
	for _, args := range [][]string{
		{"tool", "reed", "--root", root, "{}"},
		{"tool", "read", "--root", root, "not json"},
		{"tool", "read", "--root", root},
	} {
		r := eukhe(t, "", args...)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "eukhe tool") {
			t.Errorf("eukhe %q: exit %d, want 2 and one line:\n%s", args, r.code, r.stderr)
		}
	}
	if r := eukhe(t, "", "tool", "reed", "--root", root, "{}"); !strings.Contains(r.stderr, "unknown tool \"reed\": the tools are read, edit, write") {
		t.Errorf("the unknown tool's message: %s", r.stderr)
	}
}

func TestCLI_usage_errors_exit_2(t *testing.T) {
	root := t.TempDir()
	cases := [][]string{
		{},
		{"frobnicate"},
		{"tool"},
		{"tool", "nosuchtool", "--root", root, "{}"},
		{"tool", "read", "--root", root, "{not json"},
		{"tool", "read", "--root", root, `{"path": "a", "bogus": 1}`},
		{"tool", "read", "--root", root, `{"path": "a"}`, `{"path": "b"}`},
		{"tool", "read", "--bogus", root, `{"path": "a"}`},
		{"tool", "read", "--root"},
		{"tool", "read", "--root", filepath.Join(root, "missing"), `{"path": "a"}`},
	}
	for _, args := range cases {
		r := eukhe(t, "", args...)
		if r.code != 2 {
			t.Errorf("eukhe %q: exit %d, want 2\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if r.stderr == "" {
			t.Errorf("eukhe %q: a usage error says what was wrong on stderr", args)
		}
	}
}

// A read then an edit with --session on a CRLF file with a BOM keeps the
// BOM, the CRLF endings and every byte the edit did not touch (a lone CR
// in a line, trailing spaces, a last line without an ending).
func TestCLI_edit_keeps_crlf_and_bom(t *testing.T) {
	w := newWS(t)
	old := "\xEF\xBB\xBFline one\r\nline two \r\nlone\rcr stays\r\n\r\nlast, no ending"
	w.put("win.txt", []byte(old), 0o644)
	tag := w.read("win.txt")
	patch := fmt.Sprintf("[win.txt#%s]\n@@ 2\n+LINE TWO\n@@ 4>\n+inserted\n", tag)
	r := w.tool("edit", map[string]any{"patch": patch})
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Applied to win.txt#") {
		t.Fatalf("edit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "\xEF\xBB\xBFline one\r\nLINE TWO\r\nlone\rcr stays\r\n\r\ninserted\r\nlast, no ending"
	if got := string(w.get("win.txt")); got != want {
		t.Fatalf("after the edit:\n got %q\nwant %q", got, want)
	}
	// The reply's tag is the new bytes' tag, and the session knows it.
	if tag2 := w.read("win.txt"); !strings.Contains(r.stdout, "win.txt#"+tag2) {
		t.Fatalf("the reply's tag is not the file's: read shows #%s\n%s", tag2, r.stdout)
	}
}

// A two-file edit where one file changed underneath (on the lines the edit
// replaces) between the read and the edit writes neither and exits 1.
func TestCLI_two_file_edit_conflict_writes_neither(t *testing.T) {
	w := newWS(t)
	a, b := "a1\na2\na3\n", "b1\nb2\nb3\n"
	w.put("a.txt", []byte(a), 0o644)
	w.put("dir/b.txt", []byte(b), 0o644)
	ta, tb := w.read("a.txt"), w.read("dir/b.txt")
	changed := "b1\nB2 changed by someone else\nb3\n"
	w.put("dir/b.txt", []byte(changed), 0o644)
	patch := fmt.Sprintf("[a.txt#%s]\n@@ 2\n+A2\n[dir/b.txt#%s]\n@@ 2\n+B2\n", ta, tb)
	r := w.tool("edit", map[string]any{"patch": patch})
	if r.code != 1 || !strings.Contains(r.stdout, "NOT applied") || !strings.Contains(r.stdout, "Nothing was written") {
		t.Fatalf("edit over a changed file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := string(w.get("a.txt")); got != a {
		t.Fatalf("a.txt holds %q after a refused edit", got)
	}
	if got := string(w.get("dir/b.txt")); got != changed {
		t.Fatalf("dir/b.txt holds %q after a refused edit", got)
	}
}

// write refuses an existing file this session has not read, and replaces
// it after a read, keeping its line endings and mode.
func TestCLI_write_needs_a_read(t *testing.T) {
	w := newWS(t)
	old := "keep\r\nme\r\n"
	w.put("notes.txt", []byte(old), 0o600)
	r := w.tool("write", map[string]any{"path": "notes.txt", "content": "new\ntext\n"})
	if r.code != 1 || !strings.Contains(r.stdout, "Read it first") {
		t.Fatalf("write over an unread file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := string(w.get("notes.txt")); got != old {
		t.Fatalf("a refused write changed the file: %q", got)
	}
	w.read("notes.txt")
	r = w.tool("write", map[string]any{"path": "notes.txt", "content": "new\ntext\n"})
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Wrote notes.txt#") {
		t.Fatalf("write after a read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := string(w.get("notes.txt")); got != "new\r\ntext\r\n" {
		t.Fatalf("after the write: %q, want the file's CRLF endings kept", got)
	}
	if fi, _ := os.Stat(filepath.Join(w.root, "notes.txt")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("the write changed the mode to %v", fi.Mode().Perm())
	}
	// A new file needs no read.
	r = w.tool("write", map[string]any{"path": "sub/new.txt", "content": "fresh\n"})
	if r.code != 0 || string(w.get("sub/new.txt")) != "fresh\n" {
		t.Fatalf("write of a new file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestCLI_args_from_stdin(t *testing.T) {
	w := newWS(t)
	w.put("a.txt", []byte("hello\n"), 0o644)
	r := eukhe(t, `{"path": "a.txt"}`, "tool", "read", "--root", w.root, "-")
	if r.code != 0 || !strings.Contains(r.stdout, "1:hello\n") {
		t.Fatalf("read with ARGS from stdin: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The flags may come after the tool's name and in --flag=value form.
	r = eukhe(t, `{"path": "a.txt"}`, "tool", "--root="+w.root, "read", "-")
	if r.code != 0 || !strings.Contains(r.stdout, "1:hello\n") {
		t.Fatalf("read with --root=: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestCLI_directory_read_hides_temp_files(t *testing.T) {
	w := newWS(t)
	w.put("src/a.go", []byte("package a\n"), 0o644)
	w.put("src/sub/b.go", []byte("package b\n"), 0o644)
	w.put("src/.eukhe-tmp-a.go-123-4", []byte("a dead writer's bytes"), 0o600)
	w.put("src/.hidden", []byte("x"), 0o644)
	r := w.tool("read", map[string]any{"path": "src"})
	if r.code != 0 {
		t.Fatalf("directory read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"\na.go\n", "\nsub/\n", "\n.hidden\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the listing lacks %q:\n%s", strings.TrimSpace(want), r.stdout)
		}
	}
	if strings.Contains(r.stdout, ".eukhe-tmp-") {
		t.Errorf("the listing shows a temp file:\n%s", r.stdout)
	}
}

func TestCLI_encodings_are_named(t *testing.T) {
	w := newWS(t)
	w.put("latin1.txt", []byte("caf\xe9\nna\xefve\n"), 0o644)
	w.put("utf16.txt", []byte("\xFF\xFEh\x00i\x00\n\x00"), 0o644)
	cases := []struct{ path, want string }{
		{"latin1.txt", "Latin-1"},
		{"utf16.txt", "UTF-16 LE"},
	}
	for _, c := range cases {
		r := w.tool("read", map[string]any{"path": c.path})
		if r.code != 1 || !strings.Contains(r.stdout, c.path) || !strings.Contains(r.stdout, c.want) || !strings.Contains(r.stdout, "not UTF-8") {
			t.Errorf("read %s: exit %d, want a message that names %s:\n%s%s", c.path, r.code, c.want, r.stdout, r.stderr)
		}
	}
}

func TestCLI_file_over_4MiB(t *testing.T) {
	w := newWS(t)
	line := strings.Repeat("x", 99) + "\n"
	big := strings.Repeat(line, (4<<20)/len(line)+100)
	w.put("big.txt", []byte(big), 0o644)
	r := w.tool("read", map[string]any{"path": "big.txt"})
	if r.code != 1 || !strings.Contains(r.stdout, "4 MiB") || !strings.Contains(r.stdout, "in ranges") || !strings.Contains(r.stdout, "write or bash") {
		t.Fatalf("read of a %d-byte file: exit %d\n%.2000s%s", len(big), r.code, r.stdout, r.stderr)
	}
	if headerTag.MatchString(r.stdout) {
		t.Fatalf("a file over the limit has no tag:\n%.500s", r.stdout)
	}
	// A range of it reads, without a tag.
	r = w.tool("read", map[string]any{"path": "big.txt:1-3"})
	if r.code != 0 || !strings.Contains(r.stdout, "1:"+strings.Repeat("x", 99)+"\n") || headerTag.MatchString(r.stdout) {
		t.Fatalf("read of a range: exit %d\n%.2000s%s", r.code, r.stdout, r.stderr)
	}
}

// An edit of a symlinked file writes the file it points to; the link
// stays a link.
func TestCLI_edit_through_a_symlink_keeps_the_link(t *testing.T) {
	w := newWS(t)
	w.put("real/target.txt", []byte("one\ntwo\n"), 0o640)
	if err := os.Mkdir(filepath.Join(w.root, "links"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../real/target.txt", filepath.Join(w.root, "links", "t.txt")); err != nil {
		t.Fatal(err)
	}
	tag := w.read("links/t.txt")
	r := w.tool("edit", map[string]any{"patch": fmt.Sprintf("[links/t.txt#%s]\n@@ 1\n+ONE\n", tag)})
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Applied to links/t.txt#") {
		t.Fatalf("edit through a link: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	fi, err := os.Lstat(filepath.Join(w.root, "links", "t.txt"))
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("links/t.txt is no longer a symlink (%v)", err)
	}
	if got := string(w.get("real/target.txt")); got != "ONE\ntwo\n" {
		t.Fatalf("the link's target holds %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(w.root, "real", "target.txt")); fi.Mode().Perm() != 0o640 {
		t.Fatalf("the target's mode is %v, want 0640", fi.Mode().Perm())
	}
	for _, d := range []string{"real", "links"} {
		des, _ := os.ReadDir(filepath.Join(w.root, d))
		for _, de := range des {
			if strings.HasPrefix(de.Name(), ".eukhe-tmp-") {
				t.Errorf("temp file %s/%s left", d, de.Name())
			}
		}
	}
}

// A write through a symlink, after a read, replaces the file it points to
// and keeps the link.
func TestCLI_write_through_a_symlink_keeps_the_link(t *testing.T) {
	w := newWS(t)
	w.put("real.txt", []byte("old\n"), 0o644)
	if err := os.Symlink("real.txt", filepath.Join(w.root, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	w.read("alias.txt")
	r := w.tool("write", map[string]any{"path": "alias.txt", "content": "new\n"})
	if r.code != 0 {
		t.Fatalf("write through a link: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if fi, err := os.Lstat(filepath.Join(w.root, "alias.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("alias.txt is no longer a symlink (%v)", err)
	}
	if got := string(w.get("real.txt")); got != "new\n" {
		t.Fatalf("real.txt holds %q", got)
	}
}
