package docs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The grep.excludes setting leaves paths out of grep and glob, and the
// reply counts them.
func TestGrepExcludes(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.go"), "needle\n")
	mustWrite(t, filepath.Join(root, "vendor", "b.go"), "needle\n")
	mustWrite(t, filepath.Join(root, "web", "c.min.js"), "needle\n")
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root,
		Excludes: func() []string { return []string{"vendor/**", "vendor", "*.min.js"} }}
	out := tools.Grep(context.Background(), GrepArgs{Pattern: "needle"}).Text
	if !strings.Contains(out, "[a.go#") || strings.Contains(out, "b.go#") || strings.Contains(out, "c.min.js#") {
		t.Fatalf("grep with excludes:\n%s", out)
	}
	if !strings.Contains(out, "[2 entries excluded by the grep.excludes setting") {
		t.Fatalf("the excluded entries are not counted:\n%s", out)
	}
	if g := tools.Glob(context.Background(), GlobArgs{Pattern: "**/*.js"}).Text; strings.Contains(g, "c.min.js\n") {
		t.Fatalf("glob with excludes:\n%s", g)
	}
}
