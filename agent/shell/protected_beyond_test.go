package shell

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Past the map's bound, a protected entry made deep in a directory the
// first map did not list is found at the next refresh; one that was
// there when the session began is the user's, and is still listed as
// present (read-only for every process).
func TestProtectedTreeFindsWhatIsMadePastTheBound(t *testing.T) {
	old := maxTreeDirs
	maxTreeDirs = 5
	t.Cleanup(func() { maxTreeDirs = old })
	root := t.TempDir()
	for _, d := range []string{"a/1/x", "a/2/x", "a/3/x", "b/1/x", "b/2/x/.git", "c/q/r"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{".git", ".vscode"}
	tr := &protectedTree{}
	made, present := tr.refresh([]string{root}, names)
	if !tr.full || len(made) != 0 || !slices.Contains(present, filepath.Join(root, "b/2/x/.git")) {
		t.Fatalf("the first map: full %v, made %q, present %q", tr.full, made, present)
	}
	deep := filepath.Join(root, "c/q/r/.vscode")
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.dirs[filepath.Join(root, "c/q/r")]; ok {
		t.Fatal("the row proves nothing: c/q/r is mapped")
	}
	made, _ = tr.refresh([]string{root}, names)
	if !slices.Equal(made, []string{deep}) {
		t.Fatalf("made past the bound: %q, want %q", made, deep)
	}
}
