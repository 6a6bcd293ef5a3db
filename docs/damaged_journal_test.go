package docs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// A journal damaged after a crash (issue: nothing lost) is not acted on,
// but its writer's temp files do not stay in the workspace: each one that
// holds what its file holds is removed, each that holds other bytes is
// copied aside, and the notice names every file and says what became of
// its temp file — never "interrupted at 0001-01-01 (process 0)".
func TestRecovery_a_damaged_journal_leaves_no_temp_file(t *testing.T) {
	damages := map[string]func(t *testing.T, path string){
		"emptied": func(t *testing.T, p string) { must(t, os.Truncate(p, 0)) },
		"cut in half": func(t *testing.T, p string) {
			fi, _ := os.Stat(p)
			must(t, os.Truncate(p, fi.Size()/2))
		},
		"a byte flipped": func(t *testing.T, p string) { flip(t, p, -20) },
		"its first line gone": func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			_, rest, _ := strings.Cut(string(b), "\n")
			rewrite(t, p, []byte(rest))
		},
		"garbage appended": func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			f.WriteString("\x00\x00garbage")
			f.Close()
		},
		"open to others": func(t *testing.T, p string) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm() != 0o600 {
				t.Skip("this system keeps no Unix mode (the journal, made 0600, shows another): no mode opens it to others (Windows: an access list)")
			}
			must(t, os.Chmod(p, 0o666))
		},
		"copied over itself": func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			must(t, os.Remove(p))
			must(t, os.WriteFile(p, b, 0o600))
		},
		"zeroes in the middle": func(t *testing.T, p string) { flip(t, p, 40) },
	}
	for name, damage := range damages {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			base := t.TempDir()
			root, jdir := filepath.Join(base, "root"), filepath.Join(base, "journal")
			for _, f := range []string{"a.txt", "d/b.txt", "d/e/c.txt"} {
				must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755))
				must(t, os.WriteFile(filepath.Join(root, f), []byte(f+" old\n"), 0o644))
			}
			d := docs.NewDisk()
			d.Journal, d.Root = jdir, root
			renames, dead := 0, false
			d.Fault = func(step, _ string) error {
				if step == "rename" {
					renames++
					dead = dead || renames == 2 // a.txt landed; b.txt and c.txt did not
				}
				if dead {
					return errInjected
				}
				return nil
			}
			d.Commit([]docs.Change{
				{Path: filepath.Join(root, "a.txt"), Old: []byte("a.txt old\n"), New: []byte("a.txt new\n")},
				{Path: filepath.Join(root, "d/b.txt"), Old: []byte("d/b.txt old\n"), New: []byte("d/b.txt new\n")},
				{Path: filepath.Join(root, "d/e/c.txt"), Old: []byte("d/e/c.txt old\n"), New: []byte("d/e/c.txt new\n")},
			})
			d.Fault = nil
			js := leftJournals(jdir)
			if len(js) != 1 {
				t.Fatalf("the crash left journals %v", js)
			}
			if len(tempFilesUnder(t, root)) == 0 {
				t.Fatal("the crash left no temp file: the test crashes too late")
			}
			damage(t, filepath.Join(jdir, js[0]))
			rs := d.Recover()
			if len(rs) != 1 || rs[0].Err == nil {
				t.Fatalf("a damaged journal was acted on: %+v", rs)
			}
			if left := tempFilesUnder(t, root); len(left) > 0 {
				t.Fatalf("temp files stay in the workspace: %v", left)
			}
			text := rs[0].Text(func(s string) string { return s })
			if strings.Contains(text, "0001-01-01") || strings.Contains(text, "process 0") {
				t.Fatalf("the notice: %s", text)
			}
			// a.txt landed: its kept old bytes differ from what it holds
			// and are copied aside; b.txt and c.txt did not: their new
			// bytes are copied aside, their kept old bytes are what they
			// hold and are removed.
			for _, f := range []string{"a.txt", "d/b.txt", "d/e/c.txt"} {
				if !strings.Contains(text, f+": its temp file held other bytes") {
					t.Fatalf("the notice does not say what %s's temp file held: %s", f, text)
				}
				want := f + " old\n"
				if f == "a.txt" {
					want = "a.txt new\n"
				}
				if b, _ := os.ReadFile(filepath.Join(root, f)); string(b) != want {
					t.Fatalf("%s holds %q", f, b)
				}
			}
			for _, f := range []string{"d/b.txt", "d/e/c.txt"} {
				if !strings.Contains(text, f+": its temp file held the bytes it holds now (removed)") {
					t.Fatalf("the notice: %s", text)
				}
			}
			copies := 0
			filepath.WalkDir(filepath.Join(jdir, "set-aside"), func(p string, de os.DirEntry, err error) error {
				if err == nil && !de.IsDir() && strings.Contains(p, ".files") {
					copies++
					b, _ := os.ReadFile(p)
					if !strings.Contains(string(b), " new\n") && !strings.Contains(string(b), "a.txt old\n") {
						t.Errorf("copy %s holds %q", p, b)
					}
				}
				return nil
			})
			if copies != 3 {
				t.Fatalf("%d copies set aside, want 3 (a.txt's old bytes, b.txt's and c.txt's new ones)", copies)
			}
		})
	}
}

func flip(t *testing.T, p string, at int) {
	b, err := os.ReadFile(p)
	must(t, err)
	if at < 0 {
		at += len(b)
	}
	b[at] ^= 0x55
	rewrite(t, p, b)
}

func rewrite(t *testing.T, p string, b []byte) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	must(t, err)
	f.Write(b)
	f.Close()
}
