package docs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path that names nothing says what to do next: a selector that does
// not parse is named as the problem (the file exists), a near name is
// offered, else a glob that finds the name.
func TestMissingPathSaysWhatToDoNext(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"app.go", "README.md", "notes.txt", "sub/deep.go"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, n)), 0o755)
		os.WriteFile(filepath.Join(root, n), []byte("a\nb\n"), 0o644)
	}
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	for _, c := range []struct{ path, want string }{
		{"app.go:9-5", "[app.go exists, and its line selector \"9-5\": range 9-5 goes backwards; write 5-9]"},
		{"app.go:0-2", "\"0\" is not a line number"},
		{"ap.go", "did you mean app.go?"},
		{"readme.md", "did you mean README.md?"},
		{"notes.md", "did you mean notes.txt?"},
		{"sub/deep.rs", "did you mean sub/deep.go?"},
		{"zzz/qqq.go", `glob {"pattern": "**/qqq.go"}`},
	} {
		if _, err := os.Stat(filepath.Join(root, c.path)); err == nil && c.path == "readme.md" {
			continue // this file system folds case: readme.md opens README.md, and no near name is due
		}
		res := tools.Read(context.Background(), ReadArgs{Path: c.path})
		if !res.Failed || !strings.Contains(res.Text, c.want) {
			t.Errorf("read %s: %q, want %q", c.path, res.Text, c.want)
		}
	}
	res := tools.Grep(context.Background(), GrepArgs{Pattern: "a", Path: "ap.go"})
	if !strings.Contains(res.Text, "did you mean app.go?") {
		t.Errorf("grep ap.go: %q", res.Text)
	}
	// Outside the workspace nothing is listed to find a near name.
	res = tools.Read(context.Background(), ReadArgs{Path: filepath.Join(filepath.Dir(root), "nosuch-eukhe-file")})
	if strings.Contains(res.Text, "did you mean") || strings.Contains(res.Text, "glob") {
		t.Errorf("outside: %q", res.Text)
	}
}
