package docs

import (
	"path/filepath"
	"testing"
)

// Display names a path under the root relative to it, with '/', and any
// other path whole: "../x" is never shown for a path outside the root (on
// Windows Rel writes it "..\x", which was taken for a path under it).
func TestDisplayIsRelativeUnderTheRootOnly(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	tools := &Tools{Root: root}
	for abs, want := range map[string]string{
		filepath.Join(root, "a", "b.go"):   "a/b.go",
		root:                               ".",
		filepath.Join(base, "dotfiles"):    filepath.Join(base, "dotfiles"),
		filepath.Join(base, "ws2", "x.go"): filepath.Join(base, "ws2", "x.go"),
		base:                               base,
	} {
		if got := tools.Display(abs); got != want {
			t.Errorf("Display(%s) = %q, want %q", abs, got, want)
		}
	}
}
