package docs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// Where Windows has no POSIX rename (Wine), a file eukhe holds open is
// replaced in two renames, the old file set aside first
// (rename_windows.go). A writer killed between the two leaves the
// file's name empty and its old bytes under the aside name: recovery
// puts them back before it looks, then finishes the journal, and leaves
// no aside name.
func TestJournal_a_kill_between_the_two_renames_of_a_replace_is_finished(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644))
	d := crashAt(t, filepath.Join(base, "journal"), root, "rename", []docs.Change{
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Path: filepath.Join(root, "b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
	})
	// killed after a.txt was set aside, before its new bytes were renamed in
	must(t, os.Rename(filepath.Join(root, "a.txt"), filepath.Join(root, "a~eukhe-replaced-999-1.txt")))
	rs := d.Recover()
	if len(rs) != 1 || rs[0].Err != nil || len(rs[0].Left) > 0 || len(rs[0].Done) != 2 {
		t.Fatalf("recovery: %+v", rs)
	}
	for name, want := range map[string]string{"a.txt": "A\n", "b.txt": "B\n"} {
		if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	des, _ := os.ReadDir(root)
	for _, de := range des {
		if de.Name() != "a.txt" && de.Name() != "b.txt" {
			t.Errorf("%s is left after recovery", de.Name())
		}
	}
}

// A kill after the second rename, before the aside name was removed,
// leaves the old file under it: recovery removes it with the temp files.
func TestJournal_an_aside_name_left_by_a_kill_is_swept(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644))
	d := crashAt(t, filepath.Join(base, "journal"), root, "rename", []docs.Change{
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Path: filepath.Join(root, "b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
	})
	must(t, os.WriteFile(filepath.Join(root, "a~eukhe-replaced-999-1.txt"), []byte("a\n"), 0o644))
	if rs := d.Recover(); len(rs) != 1 || rs[0].Err != nil || len(rs[0].Left) > 0 {
		t.Fatalf("recovery: %+v", rs)
	}
	des, _ := os.ReadDir(root)
	for _, de := range des {
		if strings.Contains(de.Name(), "~eukhe-replaced-") || docs.IsTemp(de.Name()) {
			t.Errorf("%s is left after recovery", de.Name())
		}
	}
}
