package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
		if js := journalsIn(jdir); len(js) != 0 {
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

// captureStore is the disk, with the changes of each commit kept.
type captureStore struct {
	Store
	got []Change
}

func (c *captureStore) Commit(cs []Change) Committed {
	c.got = append(c.got, cs...)
	return c.Store.Commit(cs)
}

// The digests an edit hands the commit (for its journal) are those of the
// bytes it hands: a fresh tag, a stale one rebased, a move with an edit
// and a move alone.
func TestEditHandsTheCommitTheDigestsOfItsBytes(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c", "d"} {
		mustWrite(t, filepath.Join(root, n+".txt"), n+" one\n"+n+" two\n"+n+" three\n")
	}
	store := &captureStore{Store: NewDisk()}
	tools := &Tools{Store: store, Session: NewSession(), Root: root}
	tag := func(n string) string {
		r := tools.Read(context.Background(), ReadArgs{Path: n + ".txt"})
		_, after, _ := strings.Cut(r.Text, "#")
		tg, _, _ := strings.Cut(after, "]")
		return tg
	}
	ta, tb, tc, td := tag("a"), tag("b"), tag("c"), tag("d")
	mustWrite(t, filepath.Join(root, "b.txt"), "b zero\nb one\nb two\nb three\n") // b's tag is stale now: rebased
	patch := fmt.Sprintf("[a.txt#%s]\n@@ 2\n+A TWO\n[b.txt#%s]\n@@ 3\n+B THREE\n[c.txt#%s]\n@@ 1\n+C ONE\nMV c2.txt\n[d.txt#%s]\nMV d2.txt\n", ta, tb, tc, td)
	if r := tools.Edit(context.Background(), EditArgs{Patch: patch}); r.Failed {
		t.Fatalf("edit: %s", r.Text)
	}
	if len(store.got) != 4 {
		t.Fatalf("%d changes committed, want 4", len(store.got))
	}
	for _, c := range store.got {
		newBytes := c.New
		if newBytes == nil {
			newBytes = c.Old
		}
		if !c.Digested || c.OldDigest != DigestOf(c.Old) || c.NewDigest != DigestOf(newBytes) {
			t.Errorf("%s: digested %v, old %v (bytes %v), new %v (bytes %v)", c.Path, c.Digested, c.OldDigest, DigestOf(c.Old), c.NewDigest, DigestOf(newBytes))
		}
	}
}

// A batch writes its temp files beside the real path the gate judged,
// without following a link: a directory swapped for a link to another
// place after the judgment gets no temp file there.
func TestDisk_batch_write_never_follows_a_link_made_since(t *testing.T) {
	base := t.TempDir()
	sub, elsewhere := filepath.Join(base, "root", "sub"), filepath.Join(base, "elsewhere")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.MkdirAll(elsewhere, 0o755))
	a, b := filepath.Join(sub, "a.txt"), filepath.Join(sub, "b.txt")
	mustWrite(t, a, "a\n")
	mustWrite(t, b, "b\n")
	d := NewDisk()
	d.Journal = t.TempDir()
	batch := d.Begin([]string{a, b}).(*diskBatch)
	defer batch.Close()
	// The attacker's swap, after the gate judged sub/a.txt and sub/b.txt.
	must(t, os.Rename(sub, filepath.Join(base, "root", "sub.old")))
	must(t, os.Symlink(elsewhere, sub))
	batch.Write(a, []byte("A\n"))
	batch.Write(b, []byte("B\n"))
	for _, e := range batch.early {
		<-e.done
	}
	des, err := os.ReadDir(elsewhere)
	must(t, err)
	if len(des) != 0 {
		t.Errorf("the batch wrote through the link: %d files in the other place", len(des))
	}
}

// countingDisk is the disk with the early writes of its batches counted.
type countingDisk struct {
	*Disk
	writes atomic.Int64
}

func (c *countingDisk) Begin(paths []string) Batch {
	return &countingBatch{Batch: c.Disk.Begin(paths), c: c}
}

type countingBatch struct {
	Batch
	c *countingDisk
}

func (b *countingBatch) Write(path string, data []byte) {
	b.c.writes.Add(1)
	b.Batch.Write(path, data)
}

// An edit that will be refused for lines it has not seen writes nothing
// early: no file after the first section with an unseen anchor.
func TestEditWithUnseenLinesWritesNoTempFile(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b"} {
		mustWrite(t, filepath.Join(root, n+".txt"), strings.Repeat(n+" line\n", 50))
	}
	store := &countingDisk{Disk: NewDisk()}
	tools := &Tools{Store: store, Session: NewSession(), Root: root}
	tag := func(path string) string {
		r := tools.Read(context.Background(), ReadArgs{Path: path})
		_, after, _ := strings.Cut(r.Text, "#")
		tg, _, _ := strings.Cut(after, "]")
		return tg
	}
	ta, tb := tag("a.txt:1-5"), tag("b.txt")
	r := tools.Edit(context.Background(), EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 40\n+A\n[b.txt#%s]\n@@ 1\n+B\n", ta, tb)})
	if !r.Failed || !strings.Contains(r.Text, "40") {
		t.Fatalf("an edit over an unseen line: %s", r.Text)
	}
	if n := store.writes.Load(); n != 0 {
		t.Errorf("%d files written early for an edit refused for unseen lines", n)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "b.txt")); strings.HasPrefix(string(got), "B") {
		t.Error("b.txt changed")
	}
}
