package docs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/eukhe/eukhe/docs"
)

// A journal is a list of renames the next start carries out. One that
// eukhe would not have written — here unsigned, naming a file outside the
// root, a "temp file" that is not a temp file of its target beside it, or
// written by another user or open to others — is not acted on: it is set
// aside and reported, and no file changes.

func hexDigest(b []byte) string { return strconv.FormatUint(xxhash.Sum64(b), 16) }

func TestJournal_forged_is_not_acted_on(t *testing.T) {
	type file map[string]any
	for _, c := range []struct {
		name  string
		files func(root, outside string) []file
		mode  os.FileMode
	}{
		{"a file outside the root", func(root, outside string) []file {
			target := filepath.Join(outside, "secret.txt")
			return []file{{"name": target, "path": target, "old": hexDigest([]byte("secret\n")), "new": hexDigest([]byte("mine\n")),
				"temp": filepath.Join(outside, docs.TempName("secret.txt", 1, 1))}}
		}, 0o600},
		{"a bare move out of the root", func(root, outside string) []file {
			src := filepath.Join(outside, "secret.txt")
			return []file{{"name": src, "path": src, "dest": filepath.Join(root, "leak.txt"), "old": hexDigest([]byte("secret\n")), "new": hexDigest([]byte("secret\n"))}}
		}, 0o600},
		{"a bare move of a file reached through a symlink in the root", func(root, outside string) []file {
			src := filepath.Join(outside, "secret.txt")
			return []file{{"name": filepath.Join(root, "link.txt"), "path": src, "dest": filepath.Join(root, "leak.txt"), "destName": filepath.Join(root, "leak.txt"),
				"old": hexDigest([]byte("secret\n")), "new": hexDigest([]byte("secret\n"))}}
		}, 0o600},
		{"a move into a symlinked directory out of the root", func(root, outside string) []file {
			src := filepath.Join(root, "a.txt")
			return []file{{"name": src, "path": src, "dest": filepath.Join(outside, "a.txt"), "destName": filepath.Join(root, "out", "a.txt"),
				"old": hexDigest([]byte("a\n")), "new": hexDigest([]byte("a\n"))}}
		}, 0o600},
		{"a temp file elsewhere", func(root, outside string) []file {
			target := filepath.Join(root, "a.txt")
			return []file{{"name": target, "path": target, "old": hexDigest([]byte("a\n")), "new": hexDigest([]byte("mine\n")),
				"temp": filepath.Join(root, "sub", docs.TempName("a.txt", 1, 1))}}
		}, 0o600},
		{"a temp file that is another file", func(root, outside string) []file {
			target := filepath.Join(root, "a.txt")
			return []file{{"name": target, "path": target, "old": hexDigest([]byte("a\n")), "new": hexDigest([]byte("mine\n")),
				"temp": filepath.Join(root, "b.txt")}}
		}, 0o600},
		{"a path with ..", func(root, outside string) []file {
			target := root + "/../" + filepath.Base(outside) + "/secret.txt"
			return []file{{"name": target, "path": target, "old": hexDigest([]byte("secret\n")), "new": hexDigest([]byte("mine\n"))}}
		}, 0o600},
		{"a journal others may write", func(root, outside string) []file {
			target := filepath.Join(root, "a.txt")
			return []file{{"name": target, "path": target, "old": hexDigest([]byte("a\n")), "new": hexDigest([]byte("mine\n")),
				"temp": filepath.Join(root, docs.TempName("a.txt", 1, 1))}}
		}, 0o666},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			base := t.TempDir()
			root, outside, jdir := filepath.Join(base, "root"), filepath.Join(base, "outside"), filepath.Join(base, "journal")
			for _, d := range []string{root, filepath.Join(root, "sub"), outside, jdir} {
				must(t, os.MkdirAll(d, 0o700))
			}
			put := func(p, s string) { must(t, os.WriteFile(p, []byte(s), 0o644)) }
			put(filepath.Join(outside, "secret.txt"), "secret\n")
			put(filepath.Join(outside, docs.TempName("secret.txt", 1, 1)), "mine\n")
			put(filepath.Join(root, "a.txt"), "a\n")
			put(filepath.Join(root, "b.txt"), "mine\n")
			put(filepath.Join(root, "sub", docs.TempName("a.txt", 1, 1)), "mine\n")
			put(filepath.Join(root, docs.TempName("a.txt", 1, 1)), "mine\n")
			must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")))
			must(t, os.Symlink(outside, filepath.Join(root, "out")))
			rec := map[string]any{"v": 1, "pid": 1, "phase": "forward", "files": c.files(root, outside)}
			data, _ := json.Marshal(rec)
			jpath := filepath.Join(jdir, "1-1.journal")
			must(t, os.WriteFile(jpath, data, 0o600))
			must(t, os.Chmod(jpath, c.mode))
			d := docs.NewDisk()
			d.Journal, d.Root = jdir, root
			rs := d.Recover()
			if len(rs) != 1 || rs[0].Err == nil || len(rs[0].Done) > 0 {
				t.Fatalf("recovery of a forged journal: %+v", rs)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "secret\n" {
				t.Fatalf("the file outside holds %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
				t.Fatalf("a.txt holds %q", b)
			}
			if _, err := os.Lstat(filepath.Join(root, "leak.txt")); err == nil {
				t.Fatal("leak.txt was linked")
			}
			if _, err := os.Lstat(filepath.Join(outside, "a.txt")); err == nil {
				t.Fatal("a.txt was moved out of the root")
			}
			if _, err := os.Lstat(jpath); err == nil {
				t.Fatal("the forged journal stays")
			}
			if !strings.Contains(rs[0].Text(func(s string) string { return s }), "not acted on") {
				t.Fatalf("the report: %s", rs[0].Text(func(s string) string { return s }))
			}
		})
	}
}

// A journal of an edit under a root that is itself reached through a
// symlink is eukhe's own: after a crash it is finished.
func TestJournal_under_a_symlinked_root_is_finished(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	must(t, os.MkdirAll(real, 0o755))
	root := filepath.Join(base, "root") // a symlink to real
	must(t, os.Symlink(real, root))
	if _, err := os.Lstat(root); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	must(t, os.WriteFile(filepath.Join(real, "a.txt"), []byte("a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(real, "b.txt"), []byte("b\n"), 0o644))
	d := crashAt(t, filepath.Join(base, "journal"), root, "rename", []docs.Change{
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Path: filepath.Join(root, "b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
		{Path: filepath.Join(root, "new", "c.txt"), Create: true, New: []byte("c\n")},
	})
	rs := d.Recover()
	if len(rs) != 1 || rs[0].Err != nil || len(rs[0].Left) > 0 || len(rs[0].Done) != 3 {
		t.Fatalf("recovery: %+v", rs)
	}
	for p, want := range map[string]string{"root/a.txt": "A\n", "root/b.txt": "B\n", "root/new/c.txt": "c\n"} {
		if got, _ := os.ReadFile(filepath.Join(base, p)); string(got) != want {
			t.Fatalf("%s holds %q, want %q", p, got, want)
		}
	}
}

// A file outside the root, reached through a symlink in the workspace, is
// never touched by recovery (it acts only beneath the root, where no link
// is followed): a forward journal that names one is turned back, the
// file outside is left as it is, and the notice names it.
func TestJournal_through_a_symlink_out_of_the_root_is_turned_back(t *testing.T) {
	base := t.TempDir()
	root, elsewhere := filepath.Join(base, "root"), filepath.Join(base, "elsewhere")
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.MkdirAll(elsewhere, 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(elsewhere, "b.txt"), []byte("b\n"), 0o644))
	must(t, os.Symlink(filepath.Join(elsewhere, "b.txt"), filepath.Join(root, "b.txt")))
	if fi, err := os.Lstat(filepath.Join(root, "b.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	d := crashAt(t, filepath.Join(base, "journal"), root, "link", []docs.Change{
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Path: filepath.Join(root, "b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
		{Path: filepath.Join(root, "new", "c.txt"), Create: true, New: []byte("c\n")},
	})
	// a.txt and b.txt landed (two renames), c.txt did not (its link failed)
	rs := d.Recover()
	if len(rs) != 1 || rs[0].Err != nil || len(rs[0].TurnedBack) == 0 {
		t.Fatalf("recovery: %+v", rs)
	}
	text := rs[0].Text(func(s string) string { return s })
	if !strings.Contains(text, "turned it back") || !strings.Contains(text, "b.txt (outside the workspace)") {
		t.Fatalf("the notice: %s", text)
	}
	// b.txt is not touched; a.txt had landed and ends old (its old
	// bytes were kept before the first publish)
	for p, want := range map[string]string{"elsewhere/b.txt": "B\n", "root/a.txt": "a\n"} {
		if got, _ := os.ReadFile(filepath.Join(base, p)); string(got) != want {
			t.Fatalf("%s holds %q, want %q", p, got, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "new", "c.txt")); err == nil {
		t.Fatal("c.txt was created: the journal was finished, not turned back")
	}
	if fi, err := os.Lstat(filepath.Join(root, "b.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("b.txt is no longer a symlink")
	}
}

// crashAt commits cs with a journal in jdir for root and "crashes" at the
// first step named step: every step from there on fails, as a kill would
// stop them. The disk it gives has no fault hook: the next start.
func crashAt(t *testing.T, jdir, root, step string, cs []docs.Change) *docs.Disk {
	t.Helper()
	d := docs.NewDisk()
	d.Journal, d.Root = jdir, root
	dead := false
	d.Fault = func(s, _ string) error {
		dead = dead || s == step
		if dead {
			return errInjected
		}
		return nil
	}
	d.Commit(cs)
	d.Fault = nil
	if len(leftJournals(jdir)) != 1 {
		t.Fatalf("the crash at %s left no journal", step)
	}
	return d
}

// leftJournals lists the journals (and their temp names) in dir: not its
// key nor what was set aside.
func leftJournals(dir string) []string {
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if strings.HasSuffix(de.Name(), ".journal") || strings.HasSuffix(de.Name(), ".tmp") {
			out = append(out, de.Name())
		}
	}
	return out
}

func TestJournalDir(t *testing.T) {
	if !filepath.IsAbs("/h") {
		t.Skip("the homes and roots here are Unix paths, which are not absolute on Windows")
	}
	a := docs.JournalDir(map[string]string{"HOME": "/h"}, "/ws")
	if !strings.HasPrefix(a, "/h/.local/state/eukhe/journal/") {
		t.Fatalf("default: %s", a)
	}
	if b := docs.JournalDir(map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s"}, "/ws"); !strings.HasPrefix(b, "/s/eukhe/journal/") || filepath.Base(b) != filepath.Base(a) {
		t.Fatalf("XDG_STATE_HOME: %s", b)
	}
	if c := docs.JournalDir(map[string]string{"HOME": "/h", "XDG_STATE_HOME": "rel"}, "/ws"); c != a {
		t.Fatalf("a relative XDG_STATE_HOME is ignored: %s", c)
	}
	if d := docs.JournalDir(map[string]string{"HOME": "/h"}, "/ws/"); d != a {
		t.Fatalf("one root, one directory: %s", d)
	}
	if e := docs.JournalDir(map[string]string{"HOME": "/h"}, "/other"); e == a {
		t.Fatal("two roots share a journal directory")
	}
	if f := docs.JournalDir(map[string]string{}, "/ws"); f != "" {
		t.Fatalf("no HOME, no state directory: %q", f)
	}
}
