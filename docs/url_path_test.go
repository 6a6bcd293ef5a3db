package docs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// edit and write take file paths only: a URL (memory://c1, repo://x) is
// refused, never created as a directory named "memory:" in the workspace.
func TestEditAndWriteRefuseURLs(t *testing.T) {
	root := t.TempDir()
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	ctx := context.Background()
	for _, patch := range []string{"[memory://c1]\n+x\n", "[repo://a.txt]\n+x\n", "[a.txt#00000000]\nMV ssh://box/x\n"} {
		if r := tools.Edit(ctx, EditArgs{Patch: patch}); !r.Failed || !strings.Contains(r.Text, "URL") {
			t.Errorf("edit %q: %s", patch, r.Text)
		}
	}
	if r := tools.Write(ctx, WriteArgs{Path: "memory://c1", Content: "x"}); !r.Failed || !strings.Contains(r.Text, "URL") {
		t.Errorf("write: %s", r.Text)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		t.Errorf("%s was created", filepath.Join(root, e.Name()))
	}
	for p, want := range map[string]bool{"memory://c1": true, "a+b.c-d://x": true, "a.txt": false, "dir/x://y": false, "://x": false, "1a://x": false} {
		if IsURL(p) != want {
			t.Errorf("IsURL(%q) = %v", p, !want)
		}
	}
}
