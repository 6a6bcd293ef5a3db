//go:build !windows

package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
)

// Many files of one directory, committed again and again: the temp files
// written while the commit is checked, the sweep of each target's dead
// temp files and the writes of the commit all run at once, and no sweep
// may take a temp file a writer of this commit has just made (a sweep
// removes a file only while it holds its lock).
func TestDisk_early_temp_files_survive_the_sweeps(t *testing.T) {
	dir := t.TempDir()
	const files = 64
	body := func(i, v int) []byte {
		return []byte(strings.Repeat(fmt.Sprintf("file %d version %d\n", i, v), 2000))
	}
	for i := range files {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", i)), body(i, 0), 0o644))
	}
	d := docs.NewDisk()
	d.Journal = t.TempDir()
	for v := 1; v <= 30; v++ {
		cs := make([]docs.Change, files)
		for i := range cs {
			cs[i] = docs.Change{Path: filepath.Join(dir, fmt.Sprintf("f%02d", i)), Old: body(i, v-1), New: body(i, v)}
		}
		res := d.Commit(cs)
		if res.Conflict != nil {
			t.Fatalf("commit %d: conflict %+v", v, res.Conflict)
		}
		for i, o := range res.Outcomes {
			if o.Fate != docs.Landed || o.Warning != "" {
				t.Fatalf("commit %d, file %d: %+v", v, i, o)
			}
		}
	}
	des, err := os.ReadDir(dir)
	must(t, err)
	if len(des) != files {
		t.Errorf("%d entries left in the directory, want the %d files", len(des), files)
	}
}

// Nothing of a commit is written, not even a temp file, before every path
// still resolves as the gate judged it (Change.Still): the last change's
// check sees no temp file beside any file of the commit.
func TestDisk_no_temp_file_before_the_paths_are_judged_again(t *testing.T) {
	dir := t.TempDir()
	var cs []docs.Change
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		must(t, os.WriteFile(p, []byte("old\n"), 0o644))
		cs = append(cs, docs.Change{Path: p, Old: []byte("old\n"), New: []byte("new\n")})
	}
	var seen []string
	cs[3].Still = func() error {
		time.Sleep(100 * time.Millisecond) // a temp file begun before would be there by now
		des, err := os.ReadDir(dir)
		must(t, err)
		for _, de := range des {
			if docs.IsTemp(de.Name()) {
				seen = append(seen, de.Name())
			}
		}
		return nil
	}
	d := docs.NewDisk()
	d.Journal = t.TempDir()
	if res := d.Commit(cs); res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed {
		t.Fatalf("commit: %+v", res)
	}
	if len(seen) > 0 {
		t.Errorf("temp files existed while the paths were judged again: %v", seen)
	}
}

// A FIFO or a link planted under a temp file's name does not stop a
// write: the sweep opens neither (a FIFO would hold it for ever), and
// leaves them.
func TestDisk_sweep_skips_fifos_and_links_named_as_temp_files(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	must(t, os.WriteFile(p, []byte("old\n"), 0o644))
	fifo := filepath.Join(dir, docs.TempName("a.txt", 1, 1))
	must(t, syscall.Mkfifo(fifo, 0o600))
	link := filepath.Join(dir, docs.TempName("a.txt", 1, 2))
	must(t, os.Symlink(fifo, link))
	done := make(chan docs.Committed, 1)
	go func() {
		done <- docs.NewDisk().Commit([]docs.Change{{Path: p, Old: []byte("old\n"), New: []byte("new\n")}})
	}()
	select {
	case res := <-done:
		if res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed {
			t.Fatalf("commit: %+v", res)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the write hung on a FIFO named as a temp file")
	}
	for _, n := range []string{fifo, link} {
		if _, err := os.Lstat(n); err != nil {
			t.Errorf("%s: %v", filepath.Base(n), err)
		}
	}
}
