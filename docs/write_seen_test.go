package docs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// write honours the version it saw (issue 16): a file this session read
// that another program moved away is not created again by the next write;
// a read-only file is refused, not replaced.

func TestWrite_seen_then_moved_is_not_recreated(t *testing.T) {
	for _, how := range []string{"moved", "deleted", "moved through a symlinked directory"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.txt")
			must(t, os.WriteFile(path, []byte("a\n"), 0o644))
			tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
			name := "a.txt"
			if strings.Contains(how, "symlink") {
				must(t, os.Symlink(".", filepath.Join(dir, "here")))
				if _, err := os.Lstat(filepath.Join(dir, "here")); err != nil {
					t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
				}
				name = "here/a.txt"
			}
			if res := tools.Read(context.Background(), docs.ReadArgs{Path: name}); res.Failed {
				t.Fatal(res.Text)
			}
			if how == "deleted" {
				must(t, os.Remove(path))
			} else {
				must(t, os.Rename(path, filepath.Join(dir, "b.txt")))
			}
			res := tools.Write(context.Background(), docs.WriteArgs{Path: name, Content: "mine\n"})
			if !res.Failed || !strings.Contains(res.Text, "moved or deleted") {
				t.Fatalf("a write over a file that went:\n%s", res.Text)
			}
			if _, err := os.Lstat(path); err == nil {
				t.Fatalf("%s was created again", name)
			}
			// The refusal showed its absence: writing again creates it.
			if res := tools.Write(context.Background(), docs.WriteArgs{Path: name, Content: "mine\n"}); res.Failed {
				t.Fatalf("the write after the refusal:\n%s", res.Text)
			}
			if got, _ := os.ReadFile(path); string(got) != "mine\n" {
				t.Fatalf("%s holds %q", name, got)
			}
		})
	}
}

func TestWrite_never_seen_missing_path_is_created(t *testing.T) {
	dir := t.TempDir()
	tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
	if res := tools.Write(context.Background(), docs.WriteArgs{Path: "sub/new.txt", Content: "x\n"}); res.Failed {
		t.Fatal(res.Text)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sub", "new.txt")); string(got) != "x\n" {
		t.Fatalf("holds %q", got)
	}
}

// A read-only file is refused by write and by edit, reached by its name
// or through a symlink or a symlinked directory; its bytes and mode stay.
func TestWrite_read_only_file_is_refused(t *testing.T) {
	for _, mode := range []os.FileMode{0o444, 0o555, 0o400, 0o464} {
		for _, via := range []string{"a.txt", "link.txt", "here/a.txt"} {
			for _, tool := range []string{"write", "edit"} {
				t.Run(mode.String()+"-"+strings.ReplaceAll(via, "/", "_")+"-"+tool, func(t *testing.T) {
					dir := t.TempDir()
					path := filepath.Join(dir, "a.txt")
					old := []byte("keep\n")
					must(t, os.WriteFile(path, old, 0o644))
					must(t, os.Chmod(path, mode))
					if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != mode {
						t.Skipf("this system keeps no mode %v (Windows has a read-only attribute only: %v)", mode, fi.Mode().Perm())
					}
					must(t, os.Symlink("a.txt", filepath.Join(dir, "link.txt")))
					must(t, os.Symlink(".", filepath.Join(dir, "here")))
					if _, err := os.Lstat(filepath.Join(dir, "here")); err != nil && via != "a.txt" {
						t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
					}
					tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
					if res := tools.Read(context.Background(), docs.ReadArgs{Path: via}); res.Failed {
						t.Fatal(res.Text)
					}
					var res docs.Result
					if tool == "write" {
						res = tools.Write(context.Background(), docs.WriteArgs{Path: via, Content: "changed\n"})
					} else {
						res = tools.Edit(context.Background(), docs.EditArgs{Patch: "[" + via + "#" + docs.DigestOf(old).Tag().String() + "]\n@@ 1\n+changed\n"})
					}
					if !res.Failed || !strings.Contains(res.Text, "read-only") || !strings.Contains(res.Text, "Nothing was written") {
						t.Fatalf("%s over a %v file:\n%s", tool, mode, res.Text)
					}
					got, _ := os.ReadFile(path)
					fi, _ := os.Stat(path)
					if string(got) != string(old) || fi.Mode().Perm() != mode {
						t.Fatalf("the file holds %q with mode %v", got, fi.Mode().Perm())
					}
				})
			}
		}
	}
}
