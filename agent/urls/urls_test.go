package urls

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"
)

// urlWorld is a workspace, a place outside it, and skill directories.
type urlWorld struct {
	root, outside, userSkills string
	tools                     *docs.Tools
	r                         *Reader
}

func newURLWorld(t *testing.T) *urlWorld {
	t.Helper()
	w := &urlWorld{root: t.TempDir(), outside: t.TempDir(), userSkills: filepath.Join(t.TempDir(), "skills")}
	w.tools = &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: w.root}
	w.r = &Reader{
		Root:      w.root,
		SkillDirs: []string{filepath.Join(w.root, ".eukhe", "skills"), w.userSkills},
		Tools:     w.tools,
	}
	return w
}

func urlSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func urlWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func urlKind(err error) string {
	var u *Error
	if errors.As(err, &u) {
		return u.Kind
	}
	return ""
}

var urlTagHeader = regexp.MustCompile(`^\[([^\]#]+)#[0-9a-f]{8}\]\n`)

// TestURLRepoIsANormalRead: repo:// is the read of the file under the root
// ([path#TAG], rows), selectors too, and its rows are edit anchors.
func TestURLRepoIsANormalRead(t *testing.T) {
	w := newURLWorld(t)
	urlWrite(t, filepath.Join(w.root, "src", "a.go"), "package a\n\nfunc A() {}\n\nfunc B() {}\n")
	ctx := context.Background()

	text, err := w.r.Read(ctx, "repo://src/a.go", 0)
	if err != nil {
		t.Fatal(err)
	}
	m := urlTagHeader.FindStringSubmatch(text)
	if m == nil || m[1] != "src/a.go" || !strings.Contains(text, "\n3:func A() {}\n") {
		t.Fatalf("repo read:\n%s", text)
	}
	plain := (&docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: w.root}).Read(context.Background(), docs.ReadArgs{Path: "src/a.go"})
	if plain.Text != text {
		t.Fatalf("repo:// differs from the plain read:\n%s\n---\n%s", text, plain.Text)
	}
	// Its rows are anchors: an edit through the header's tag lands.
	res := w.tools.Edit(context.Background(), docs.EditArgs{Patch: strings.TrimSuffix(m[0], "\n") + "\n@@ 3\n+func A() { return }\n"})
	if res.Failed || !strings.HasPrefix(res.Text, "Applied to src/a.go#") {
		t.Fatalf("edit after repo:// read: %s", res.Text)
	}

	for _, c := range []struct{ url, plain string }{
		{"repo://src/a.go:3-3", "src/a.go:3-3"},
		{"repo:///src/./x/../a.go:1-2,5-", "src/a.go:1-2,5-"},
		{"repo://src", "src"},
	} {
		text, err := w.r.Read(ctx, c.url, 0)
		want := w.tools.Read(context.Background(), docs.ReadArgs{Path: c.plain})
		if err != nil || text != want.Text {
			t.Errorf("%s: %q, %v\nwant %q", c.url, text, err, want.Text)
		}
	}
	// The root itself, and the bound of the call.
	if text, err := w.r.Read(ctx, "repo://", 0); err != nil || !strings.Contains(text, "src/") {
		t.Errorf("repo://: %q, %v", text, err)
	}
	urlWrite(t, filepath.Join(w.root, "long.txt"), strings.Repeat("a line of text\n", 200))
	if text, err := w.r.Read(ctx, "repo://long.txt", 300); err != nil || len(text) > 600 || !strings.Contains(text, "[cut: lines") {
		t.Errorf("bounded read (%d bytes): %v\n%s", len(text), err, text)
	}
}

// TestURLRepoConfinement: above the root lexically is escapes (S7.6),
// never clamped; a plain path under it reads, a selector too. (Links:
// TestURLRepoConfinementLinks.)
func TestURLRepoConfinement(t *testing.T) {
	w := newURLWorld(t)
	urlWrite(t, filepath.Join(w.outside, "secret.txt"), "secret\n")
	urlWrite(t, filepath.Join(w.root, "src", "a.go"), "package a\n")
	urlWrite(t, filepath.Join(w.root, "bin.dat"), "a\x00b\n")
	ctx := context.Background()
	for _, c := range []struct{ url, kind string }{
		{"repo://..", KindEscapes},
		{"repo://../" + filepath.Base(w.outside) + "/secret.txt", KindEscapes},
		{"repo://src/../../x", KindEscapes},
		{"repo://src/a.go/../../..", KindEscapes},
		{"repo://missing.go", KindNotFound},
		{"repo://src/a.go/x", KindNotFound},
		{"repo://bin.dat", KindBinary},
		{"repo://src/../src/a.go:1", ""},
	} {
		text, err := w.r.Read(ctx, c.url, 0)
		if urlKind(err) != c.kind {
			t.Errorf("%s: %q, %v; want %q", c.url, text, err, c.kind)
		}
		if strings.Contains(text, "secret") || (err != nil && strings.Contains(err.Error(), "secret\n")) {
			t.Errorf("%s: read the file outside the root", c.url)
		}
	}
}

// TestURLRepoConfinementLinks: a symbolic link out of the root (to a
// file, a directory, nothing) is escapes (S7.6); a link that stays inside
// reads, and a root reached through a link is the same root.
func TestURLRepoConfinementLinks(t *testing.T) {
	testkit.NeedSymlinks(t)
	w := newURLWorld(t)
	urlWrite(t, filepath.Join(w.outside, "secret.txt"), "secret\n")
	urlWrite(t, filepath.Join(w.root, "src", "a.go"), "package a\n")
	urlSymlink(t, filepath.Join(w.outside, "secret.txt"), filepath.Join(w.root, "out"))
	urlSymlink(t, w.outside, filepath.Join(w.root, "outdir"))
	urlSymlink(t, "../"+filepath.Base(w.outside)+"/nothing", filepath.Join(w.root, "dangling"))
	urlSymlink(t, filepath.Join(w.outside, "missing"), filepath.Join(w.root, "dangling-abs"))
	urlSymlink(t, "src/a.go", filepath.Join(w.root, "in"))
	urlSymlink(t, "src", filepath.Join(w.root, "indir"))
	urlSymlink(t, "loop", filepath.Join(w.root, "loop"))
	ctx := context.Background()
	for _, c := range []struct{ url, kind string }{
		{"repo://out", KindEscapes},
		{"repo://outdir/secret.txt", KindEscapes},
		{"repo://outdir/missing.txt", KindEscapes},
		{"repo://outdir", KindEscapes},
		{"repo://dangling", KindEscapes},
		{"repo://dangling-abs", KindEscapes},
		{"repo://out:1-2", KindEscapes},
		{"repo://loop", KindIO},
		{"repo://in", ""},
		{"repo://indir/a.go", ""},
		{"repo://src/../in:1", ""},
	} {
		text, err := w.r.Read(ctx, c.url, 0)
		if urlKind(err) != c.kind {
			t.Errorf("%s: %q, %v; want %q", c.url, text, err, c.kind)
		}
		if strings.Contains(text, "secret") || (err != nil && strings.Contains(err.Error(), "secret\n")) {
			t.Errorf("%s: read the file outside the root", c.url)
		}
	}
	// A root reached through a symbolic link.
	link := filepath.Join(t.TempDir(), "ws")
	urlSymlink(t, w.root, link)
	r := *w.r
	r.Root = link
	if _, err := r.Read(ctx, "repo://src/a.go", 0); err != nil {
		t.Errorf("root through a link: %v", err)
	}
	if _, err := r.Read(ctx, "repo://out", 0); urlKind(err) != KindEscapes {
		t.Errorf("root through a link, link out: %v", err)
	}
}

// urlGuard is a documents gate that notes each access and refuses the
// paths it is told to.
type urlGuard struct {
	asked  []string
	refuse string
}

func (g *urlGuard) Allow(_ context.Context, path string, _ docs.Access) (string, error) {
	g.asked = append(g.asked, path)
	if strings.HasSuffix(path, g.refuse) {
		return "", errors.New("read did not run (read, secret): the user denied it. Do not try it again unless the user asks for it.")
	}
	return path, nil
}

func (g *urlGuard) SecretName(string) bool { return false }

func (g *urlGuard) SameReal(path, real string) bool { return true }

// TestURLRepoGate: a repo:// read is one document access the gate judges
// once, as given; a refusal is not_allowed with the gate's text.
func TestURLRepoGate(t *testing.T) {
	w := newURLWorld(t)
	urlWrite(t, filepath.Join(w.root, "src", "a.go"), "package a\n")
	urlWrite(t, filepath.Join(w.root, ".env"), "KEY=1\n")
	g := &urlGuard{refuse: ".env"}
	w.tools.Guard = g
	if _, err := w.r.Read(context.Background(), "repo://src/./a.go:1", 0); err != nil {
		t.Fatal(err)
	}
	_, err := w.r.Read(context.Background(), "repo://.env", 0)
	if urlKind(err) != KindNotAllowed || !strings.Contains(err.Error(), "the user denied it") {
		t.Fatalf("refused: %v", err)
	}
	want := []string{filepath.Join(w.root, "src", "a.go"), filepath.Join(w.root, ".env")}
	if !slices.Equal(g.asked, want) {
		t.Fatalf("the gate was asked %q, want %q", g.asked, want)
	}
}

// TestURLSkill: skill://name is its SKILL.md from the first skill
// directory that has it, skill://name/path a file under it, confined to
// the skill's directory; skill:// lists them. (Links out of a skill:
// TestURLSkillLinks.)
func TestURLSkill(t *testing.T) {
	w := newURLWorld(t)
	proj := filepath.Join(w.root, ".eukhe", "skills")
	urlWrite(t, filepath.Join(proj, "a", "SKILL.md"), "project a\n")
	urlWrite(t, filepath.Join(w.userSkills, "a", "SKILL.md"), "user a\n")
	urlWrite(t, filepath.Join(w.userSkills, "b", "SKILL.md"), "user b\n")
	urlWrite(t, filepath.Join(w.userSkills, "b", "ref", "x.md"), "ref x\n")
	ctx := context.Background()
	for _, c := range []struct{ url, kind, has string }{
		{"skill://a", "", "1:project a\n"},
		{"skill://a/", "", "1:project a\n"},
		{"skill://b", "", "1:user b\n"},
		{"skill://b/ref/x.md", "", "1:ref x\n"},
		{"skill://b/ref/./../ref/x.md:1", "", "1:ref x\n"},
		{"skill://b/ref", "", "x.md"},
		{"skill://b/../a/SKILL.md", KindEscapes, ""},
		{"skill://b/ref/../../b/SKILL.md", KindEscapes, ""},
		{"skill://..", KindEscapes, ""},
		{"skill://../a", KindEscapes, ""},
		{"skill://c", KindNotFound, ""},
		{"skill://b/nope.md", KindNotFound, ""},
		{"skill:///a", KindArguments, ""},
		{"skill://./a", KindArguments, ""},
	} {
		text, err := w.r.Read(ctx, c.url, 0)
		if urlKind(err) != c.kind || !strings.Contains(text, c.has) {
			t.Errorf("%s: %q, %v; want %q %q", c.url, text, err, c.kind, c.has)
		}
		if c.kind == "" && !strings.HasSuffix(c.url, "ref") && urlTagHeader.FindString(text) == "" {
			t.Errorf("%s: no [path#TAG] header in %q", c.url, text)
		}
	}
	text, err := w.r.Read(ctx, "skill://", 0)
	if err != nil || strings.Count(text, "skill://a\t") != 1 || strings.Count(text, "skill://b\t") != 1 || !strings.Contains(text, "skill://a\t"+filepath.Join(proj, "a")) {
		t.Errorf("skill://: %q, %v", text, err)
	}
}

// TestURLSkillLinks: a link in a skill's directory that leads out of it,
// to a file outside or to another skill's, is escapes.
func TestURLSkillLinks(t *testing.T) {
	testkit.NeedSymlinks(t)
	w := newURLWorld(t)
	proj := filepath.Join(w.root, ".eukhe", "skills")
	urlWrite(t, filepath.Join(proj, "a", "SKILL.md"), "project a\n")
	urlWrite(t, filepath.Join(w.userSkills, "b", "SKILL.md"), "user b\n")
	urlWrite(t, filepath.Join(w.outside, "secret.txt"), "secret\n")
	urlSymlink(t, filepath.Join(w.outside, "secret.txt"), filepath.Join(w.userSkills, "b", "out.md"))
	urlSymlink(t, filepath.Join(w.userSkills, "b", "SKILL.md"), filepath.Join(proj, "a", "b.md")) // another skill's
	for _, url := range []string{"skill://b/out.md", "skill://a/b.md"} {
		if text, err := w.r.Read(context.Background(), url, 0); urlKind(err) != KindEscapes || strings.Contains(text, "secret") {
			t.Errorf("%s: %q, %v; want %q", url, text, err, KindEscapes)
		}
	}
}

// fakeResources is one MCP server, "srv", as the client manager shows it.
type fakeResources struct {
	list  []*mcp.Resource
	read  map[string]*mcp.ReadResourceResult
	err   error
	hang  bool
	asked []string
}

func (f *fakeResources) HasServer(name string) bool { return name == "srv" }

func (f *fakeResources) ListResources(ctx context.Context, server string) ([]*mcp.Resource, error) {
	return f.list, f.err
}

func (f *fakeResources) ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	f.asked = append(f.asked, uri)
	if f.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if f.err != nil {
		return nil, f.err
	}
	if res, ok := f.read[uri]; ok {
		return res, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found"}
}

func TestURLMCP(t *testing.T) {
	png := make([]byte, 1234)
	big := strings.Repeat("a resource line\n", 1000)
	f := &fakeResources{
		list: []*mcp.Resource{
			{URI: "test://static/resource/1", Name: "Resource 1", MIMEType: "text/plain"},
			{URI: "test://static/resource/2", Name: "Resource 2", MIMEType: "application/octet-stream"},
			{URI: "file:///x", Name: "x"},
		},
		read: map[string]*mcp.ReadResourceResult{
			"test://static/resource/1": {Contents: []*mcp.ResourceContents{{URI: "test://static/resource/1", MIMEType: "text/plain", Text: "hello\nworld"}}},
			"test://static/resource/2": {Contents: []*mcp.ResourceContents{{URI: "test://static/resource/2", MIMEType: "image/png", Blob: png}}},
			"big":                      {Contents: []*mcp.ResourceContents{{URI: "big", Text: big}}},
			"mixed": {Contents: []*mcp.ResourceContents{
				{URI: "mixed#1", MIMEType: "text/markdown", Text: "# one\n"},
				{URI: "mixed#2", Blob: []byte{1, 2, 3}},
			}},
		},
	}
	r := &Reader{Resources: f}
	ctx := context.Background()

	text, err := r.Read(ctx, "mcp://srv", 0)
	if err != nil || !strings.Contains(text, "\ntest://static/resource/1\tResource 1\ttext/plain\n") || !strings.Contains(text, "\nfile:///x\tx\t-\n") {
		t.Fatalf("list: %q, %v", text, err)
	}
	if again, _ := r.Read(ctx, "mcp://srv/", 0); again != text {
		t.Errorf("mcp://srv/ lists as mcp://srv does: %q", again)
	}

	text, err = r.Read(ctx, "mcp://srv/test://static/resource/1", 0)
	if err != nil || !strings.HasSuffix(text, "]\nhello\nworld\n") || f.asked[len(f.asked)-1] != "test://static/resource/1" {
		t.Fatalf("text part: %q, %v (asked %q)", text, err, f.asked)
	}
	text, err = r.Read(ctx, "mcp://srv/test://static/resource/2", 0)
	if err != nil || !strings.Contains(text, "1234 bytes, image/png") || strings.Contains(text, "\x00") {
		t.Fatalf("binary part: %q, %v", text, err)
	}
	text, err = r.Read(ctx, "mcp://srv/mixed", 0)
	if err != nil || !strings.Contains(text, "[part 1 of 2: mixed#1, text/markdown]\n# one\n") || !strings.Contains(text, "[binary part mixed#2: 3 bytes, no MIME type; not shown]") {
		t.Fatalf("mixed: %q, %v", text, err)
	}
	text, err = r.Read(ctx, "mcp://srv/big", 400)
	if err != nil || len(text) > 400+200 || !strings.Contains(text, "[cut: ") || !strings.HasSuffix(text, "a resource line\n") {
		t.Fatalf("bounded (%d bytes): %q, %v", len(text), text, err)
	}

	for _, c := range []struct {
		r    *Reader
		url  string
		kind string
	}{
		{r, "mcp://other", KindNotAllowed},
		{r, "mcp://other/x", KindNotAllowed},
		{&Reader{}, "mcp://srv", KindNotAllowed},
		{r, "mcp://", KindArguments},
		{r, "mcp:///x", KindArguments},
		{r, "mcp://srv/../x", KindEscapes},
		{r, "mcp://srv/a/../../x", KindEscapes},
		{r, "mcp://srv/nothing", KindNotFound},
		{&Reader{Resources: &fakeResources{err: errors.New("server exited")}}, "mcp://srv/x", KindIO},
		{&Reader{Resources: &fakeResources{err: errors.New("server exited")}}, "mcp://srv", KindIO},
	} {
		if _, err := c.r.Read(ctx, c.url, 0); urlKind(err) != c.kind {
			t.Errorf("%s: %v; want %s", c.url, err, c.kind)
		}
	}
	hung := &Reader{Resources: &fakeResources{hang: true}}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := hung.Read(short, "mcp://srv/x", 0); urlKind(err) != KindTimeout {
		t.Errorf("hung server: %v", err)
	}
}

// TestURLChatSchemes: without a transcript, agent:// and memory:// are
// the rejection scheme saying so; any other unknown scheme is scheme too.
func TestURLChatSchemes(t *testing.T) {
	r := &Reader{}
	for _, u := range []string{"agent://sub-1", "memory://", "memory://m1", "memory://m1/3", "MEMORY://m1"} {
		_, err := r.Read(context.Background(), u, 0)
		if urlKind(err) != KindScheme || !strings.Contains(err.Error(), "keeps no transcript") {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"http://example.com/x", "file:///etc/passwd", "git://x", "not a url"} {
		_, err := r.Read(context.Background(), u, 0)
		if urlKind(err) != KindScheme {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestSplitURL(t *testing.T) {
	for raw, want := range map[string]string{
		"repo://a/b":       "repo|a/b",
		"REPO://a":         "repo|a",
		"svn+ssh://h/p":    "svn+ssh|h/p",
		"ssh://box/~/x":    "ssh|box/~/x",
		"mcp://s/t://u/1":  "mcp|s/t://u/1",
		"src/a.go":         "",
		"://x":             "",
		"1x://y":           "",
		"a b://c":          "",
		"dir/repo://x":     "",
		"/abs/path":        "",
		"C:/x":             "",
		"notes: see x://y": "",
	} {
		s, rest, ok := Split(raw)
		got := ""
		if ok {
			got = s + "|" + rest
		}
		if got != want || IsURL(raw) != ok {
			t.Errorf("Split(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestCutMiddleText: past the bound, the head and the tail are the text's
// own start and end, within the bound together, whole lines when a line
// fits, and one notice between them counts the bytes cut.
func TestCutMiddleText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lines := rapid.SliceOfN(rapid.StringMatching(`é?[a-z]{0,30}`), 0, 40).Draw(t, "lines")
		text := strings.Join(lines, "\n") + rapid.SampledFrom([]string{"", "\n"}).Draw(t, "end")
		bound := rapid.IntRange(1, 300).Draw(t, "bound")
		got := CutMiddleText(text, bound)
		if len(text) <= bound {
			if got != text {
				t.Fatalf("cut a text within the bound: %q", got)
			}
			return
		}
		i := strings.Index(got, "[cut: ")
		if i < 0 {
			t.Fatalf("no notice in %q", got)
		}
		j := i + strings.Index(got[i:], "]\n") + 2
		var n int
		if _, err := fmt.Sscanf(got[i:j], "[cut: %d byte", &n); err != nil { // "1 byte", "2 bytes"
			t.Fatalf("notice %q: %v", got[i:j], err)
		}
		head, tail := got[:i], got[j:]
		if !strings.HasPrefix(text, head) || len(text)-len(head)-len(tail) != n {
			head = strings.TrimSuffix(head, "\n") // the newline put after a cut line
		}
		if !strings.HasPrefix(text, head) || !strings.HasSuffix(text, tail) || len(head)+len(tail) > bound {
			t.Fatalf("head %q tail %q of %q (bound %d)", head, tail, text, bound)
		}
		if n != len(text)-len(head)-len(tail) {
			t.Fatalf("notice %q: %d bytes cut", got[i:j], len(text)-len(head)-len(tail))
		}
	})
}

// TestURLSSHUnwired: a reader without an ssh reader rejects every ssh://
// read as an empty ssh.hosts does (not_allowed, naming the setting).
func TestURLSSHUnwired(t *testing.T) {
	_, err := (&Reader{}).Read(context.Background(), "ssh://box/etc/hosts", 0)
	if urlKind(err) != KindNotAllowed || !strings.Contains(err.Error(), "ssh.hosts") {
		t.Fatalf("%v", err)
	}
}
