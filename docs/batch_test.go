package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An edit of several files on disk begins a batch: its journal first, then
// each file's temp file as soon as its new bytes are made. Whether the
// edit lands or is refused after some temp files were written, nothing of
// the batch is left: no temp file beside the files, no journal.
func TestEditBatchLeavesNoTempFileOrJournal(t *testing.T) {
	root := t.TempDir()
	jdir := filepath.Join(t.TempDir(), "journal")
	for i := range 4 {
		mustWrite(t, filepath.Join(root, fmt.Sprintf("f%d.txt", i)), strings.Repeat(fmt.Sprintf("file %d\n", i), 500))
	}
	disk := NewDisk()
	disk.Journal, disk.Root = jdir, root
	tools := &Tools{Store: disk, Session: NewSession(), Root: root}
	tags := make([]string, 4)
	for i := range tags {
		r := tools.Read(context.Background(), ReadArgs{Path: fmt.Sprintf("f%d.txt", i)})
		_, after, _ := strings.Cut(r.Text, "#")
		tags[i], _, _ = strings.Cut(after, "]")
	}
	patch := func(last string) string {
		var b strings.Builder
		for i := range 3 {
			fmt.Fprintf(&b, "[f%d.txt#%s]\n@@ 1\n+changed %d\n", i, tags[i], i)
		}
		fmt.Fprintf(&b, "[f3.txt#%s]\n@@ 1\n+changed 3\n", last)
		return b.String()
	}
	left := func(when string) {
		t.Helper()
		des, err := os.ReadDir(root)
		must(t, err)
		if len(des) != 4 {
			var names []string
			for _, de := range des {
				names = append(names, de.Name())
			}
			t.Errorf("%s: the directory holds %v", when, names)
		}
		if js, _ := os.ReadDir(jdir); len(js) != 0 {
			t.Errorf("%s: %d journal files left", when, len(js))
		}
	}
	r := tools.Edit(context.Background(), EditArgs{Patch: patch("00000000")})
	if !r.Failed || !strings.Contains(r.Text, "NOT applied") {
		t.Fatalf("an edit with a tag this session never saw: %s", r.Text)
	}
	left("after a refused edit")
	if b, _ := os.ReadFile(filepath.Join(root, "f0.txt")); strings.HasPrefix(string(b), "changed") {
		t.Error("the refused edit changed f0.txt")
	}
	r = tools.Edit(context.Background(), EditArgs{Patch: patch(tags[3])})
	if r.Failed || !strings.HasPrefix(r.Text, "Applied to f0.txt#") {
		t.Fatalf("the edit: %s", r.Text)
	}
	left("after the edit landed")
	for i := range 4 {
		if b, _ := os.ReadFile(filepath.Join(root, fmt.Sprintf("f%d.txt", i))); !strings.HasPrefix(string(b), fmt.Sprintf("changed %d\n", i)) {
			t.Errorf("f%d.txt: %.40q", i, b)
		}
	}
}
