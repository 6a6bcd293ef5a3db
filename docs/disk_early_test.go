package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
