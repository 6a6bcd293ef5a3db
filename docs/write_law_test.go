package docs_test

// S8.3 through the write tool on real directories: write_never_loses_unseen
// and write_writes_seen.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// genOldFile draws what is on disk before a write: UTF-8 text mostly, now
// and then bytes of another encoding.
func genOldFile(t *rapid.T) []byte {
	if rapid.IntRange(0, 4).Draw(t, "foreign") == 0 {
		return append([]byte{0xFF, 0xFE}, genBytes(t, "foreignBody")...)
	}
	return genFile(t, "old", true, 10)
}

func modeOf(t *rapid.T, path string) fs.FileMode {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// write_never_loses_unseen: over a version this session did not see (it
// never read the file, or it read an older version that another program
// has since replaced), write is refused and nothing changes.
func TestLaw_write_never_loses_unseen(t *testing.T) {
	parent := parentDir(t)
	if fi, err := os.Stat(parent); err == nil && fi.Mode().Perm() != 0o700 {
		t.Skip("this system keeps no Unix mode (a t.TempDir is made 0700; Windows has a read-only attribute only), and the law checks modes")
	}
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		b := genOldFile(t)
		if rapid.Bool().Draw(t, "readBefore") {
			earlier := genFile(t, "earlier", true, 6)
			if bytes.Equal(earlier, b) {
				earlier = append(earlier, "earlier"...)
			}
			ws.put(t, "f.txt", earlier)
			if r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"}); r.Failed {
				t.Fatalf("read: %s", r.Text)
			}
		}
		ws.put(t, "f.txt", b) // another program writes the file
		mode := rapid.SampledFrom([]fs.FileMode{0o600, 0o644, 0o755}).Draw(t, "mode")
		if err := os.Chmod(ws.path("f.txt"), mode); err != nil {
			t.Fatal(err)
		}
		content := genFile(t, "content", true, 6)
		r := ws.tools.Write(context.Background(), docs.WriteArgs{Path: "f.txt", Content: string(content)})
		got, _ := ws.get(t, "f.txt")
		if !r.Failed || !bytes.Equal(got, b) || modeOf(t, ws.path("f.txt")) != mode {
			t.Fatalf("write over an unseen version: %q; file %s (was %s)", r.Text, short(got), short(b))
		}
		if !strings.Contains(r.Text, "NOT written") || !strings.Contains(r.Text, "Read it first") {
			t.Fatalf("the refusal does not tell to read first: %q", r.Text)
		}
	})
}

// write_writes_seen: over no file, or over a version this session saw (a
// whole read, a read of some lines, a raw read, its own write or edit),
// write writes: a new file gets the content as it is; a replaced file
// keeps its BOM, line endings (lines_write_keeps) and mode, and a file
// that was not UTF-8 gets the content with a warning. Afterwards the
// session has seen every line it wrote.
func TestLaw_write_writes_seen(t *testing.T) {
	parent := parentDir(t)
	if fi, err := os.Stat(parent); err == nil && fi.Mode().Perm() != 0o700 {
		t.Skip("this system keeps no Unix mode (a t.TempDir is made 0700; Windows has a read-only attribute only), and the law checks modes")
	}
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		content := genFile(t, "content", true, 8)
		how := rapid.SampledFrom([]string{"new", "read", "lines", "raw", "own write", "edit"}).Draw(t, "how")
		var b []byte
		mode := fs.FileMode(0o644)
		if how != "new" {
			b = genOldFile(t)
			if how == "read" || how == "lines" || how == "edit" {
				b = genFile(t, "utf8old", true, 10)
			}
			ws.put(t, "f.txt", b)
			mode = rapid.SampledFrom([]fs.FileMode{0o600, 0o644, 0o755}).Draw(t, "mode")
			if err := os.Chmod(ws.path("f.txt"), mode); err != nil {
				t.Fatal(err)
			}
			var r docs.Result
			switch how {
			case "read":
				r = ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"})
			case "lines":
				// Some lines of it (a file without lines has none to
				// show: it is read whole).
				arg := "f.txt"
				if len(docs.Scan(b).Lines) > 0 {
					arg += ":1"
				}
				r = ws.tools.Read(context.Background(), docs.ReadArgs{Path: arg})
			case "raw":
				r = ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt", Raw: true})
			case "own write":
				// The session never read it: another program wrote it,
				// and the session's own write replaced it... after it read.
				r = ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt", Raw: true})
				if !r.Failed {
					r = ws.tools.Write(context.Background(), docs.WriteArgs{Path: "f.txt", Content: "own\n"})
				}
				b, _ = ws.get(t, "f.txt")
			case "edit":
				if r = ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"}); !r.Failed {
					r = ws.tools.Edit(context.Background(), docs.EditArgs{Patch: "[f.txt#" + tagOf(b) + "]\n@@ ^\n+edited\n"})
				}
				b, _ = ws.get(t, "f.txt")
			}
			if r.Failed {
				t.Fatalf("%s: %s", how, r.Text)
			}
		}
		r := ws.tools.Write(context.Background(), docs.WriteArgs{Path: "f.txt", Content: string(content)})
		if r.Failed || !strings.HasPrefix(r.Text, "Wrote f.txt#") {
			t.Fatalf("write over %s: %s", how, r.Text)
		}
		got, ok := ws.get(t, "f.txt")
		want := content
		switch {
		case how == "new":
		case !utf8.Valid(b):
			if !strings.Contains(r.Text, "not UTF-8") {
				t.Fatalf("the old file was not UTF-8, and the reply does not warn: %s", r.Text)
			}
		default:
			want, _ = docs.KeepStyle(docs.Scan(b), content)
		}
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("write over %s: file %s, want %s", how, short(got), short(want))
		}
		if m := modeOf(t, ws.path("f.txt")); m != mode {
			t.Fatalf("mode %v after the write, want %v", m, mode)
		}
		if !strings.Contains(r.Text, "f.txt#"+tagOf(want)) {
			t.Fatalf("reply %q does not name the new tag %s", r.Text, tagOf(want))
		}
		v := ws.tools.Session.Knows(ws.path("f.txt"), docs.DigestOf(want))
		if v == nil {
			t.Fatalf("the session does not know the version it wrote")
		}
		if n := len(docs.Scan(want).Lines); v.Seen.Len() != n || (n > 0 && !v.Seen.Has(n)) {
			t.Fatalf("seen %v after writing %d lines", lineSetOf(&v.Seen), n)
		}
		// And a second write goes over the session's own.
		if r := ws.tools.Write(context.Background(), docs.WriteArgs{Path: "f.txt", Content: fmt.Sprintf("again %s\n", how)}); r.Failed {
			t.Fatalf("a write over the session's own write: %s", r.Text)
		}
	})
}
