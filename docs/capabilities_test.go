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

// spyDisk is the disk with each capability's calls counted: put under a
// wrapper, it tells whether the tools reached the disk's own path (the
// one production runs) through the wrapper, or the wrapper dropped it.
type spyDisk struct {
	*Disk
	trees, noLinkReads, noLinkLists, begins, begunCommits atomic.Int64
}

func (s *spyDisk) OpenTree(dir string, real bool) (Tree, error) {
	s.trees.Add(1)
	return s.Disk.OpenTree(dir, real)
}

func (s *spyDisk) ReadNoLinks(path string) (Snapshot, error) {
	s.noLinkReads.Add(1)
	return s.Disk.ReadNoLinks(path)
}

func (s *spyDisk) ListNoLinks(dir string) ([]Entry, error) {
	s.noLinkLists.Add(1)
	return s.Disk.ListNoLinks(dir)
}

func (s *spyDisk) Begin(paths []string) Batch {
	s.begins.Add(1)
	return s.Disk.Begin(paths)
}

// Commit counts the commits that reach the disk with its own batch on
// them: the early temp files are adopted (batchPub), not written again.
func (s *spyDisk) Commit(cs []Change) Committed {
	if s.Disk.begunIn(cs) != nil {
		s.begunCommits.Add(1)
	}
	return s.Disk.Commit(cs)
}

// The wrappers the tests (and agent's URL reads) put around a store: each
// changes one method and embeds the rest.
type (
	commitWrapper struct{ Store } // changes Commit (captureStore, hooked)
	readWrapper   struct{ Store } // changes Read (vanishingStore, readWatch)
	batchWrapper  struct{ Store } // wraps Begin's batch (countingDisk)
	wrappedBatch  struct{ Batch }
)

func (w commitWrapper) Commit(cs []Change) Committed     { return w.Store.Commit(cs) }
func (w readWrapper) Read(path string) (Snapshot, error) { return w.Store.Read(path) }
func (w batchWrapper) Begin(paths []string) Batch        { return wrappedBatch{w.Store.Begin(paths)} }
func (b wrappedBatch) Write(path string, data []byte)    { b.Batch.Write(path, data) }

// A wrapper cannot drop a capability: through any wrapper of the disk, a
// read of a judged path reads with no link on the way, a listing lists
// so, a grep walks the disk's tree (openat2), and an edit of several files
// begins the disk's batch and commits with it (its temp files written
// early and adopted) — the paths production runs.
func TestWrappersKeepEveryCapability(t *testing.T) {
	_, noTrees := NewDisk().OpenTree(t.TempDir(), true)
	for name, wrap := range map[string]func(Store) Store{
		"the disk":                   func(s Store) Store { return s },
		"a wrapper of Commit":        func(s Store) Store { return commitWrapper{s} },
		"a wrapper of Read":          func(s Store) Store { return readWrapper{s} },
		"a wrapper of Begin's batch": func(s Store) Store { return batchWrapper{s} },
		"three wrappers":             func(s Store) Store { return commitWrapper{batchWrapper{readWrapper{s}}} },
	} {
		root := t.TempDir()
		must(t, os.Mkdir(filepath.Join(root, "d"), 0o755))
		for _, n := range []string{"a", "b"} {
			mustWrite(t, filepath.Join(root, n+".txt"), n+" one\n"+n+" two\n")
		}
		spy := &spyDisk{Disk: NewDisk()}
		spy.Journal = t.TempDir()
		tools := &Tools{Store: wrap(spy), Session: NewSession(), Root: root, Guard: &fakeGuard{}}
		ctx := context.Background()
		tags := map[string]string{}
		for _, n := range []string{"a", "b"} {
			r := tools.Read(ctx, ReadArgs{Path: n + ".txt"})
			_, after, _ := strings.Cut(r.Text, "#")
			tags[n], _, _ = strings.Cut(after, "]")
		}
		tools.Read(ctx, ReadArgs{Path: "d"})
		if r := tools.Grep(ctx, GrepArgs{Pattern: "one"}); r.Failed || !strings.Contains(r.Text, "a one") {
			t.Fatalf("%s: grep: %s", name, r.Text)
		}
		r := tools.Edit(ctx, EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 1\n+A ONE\n[b.txt#%s]\n@@ 1\n+B ONE\n", tags["a"], tags["b"])})
		if r.Failed {
			t.Fatalf("%s: edit: %s", name, r.Text)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "b.txt")); !strings.HasPrefix(string(b), "B ONE\n") {
			t.Fatalf("%s: b.txt: %q", name, b)
		}
		if spy.noLinkReads.Load() == 0 || spy.noLinkLists.Load() == 0 {
			t.Errorf("%s: the reads of judged paths were by path (no-link reads %d, listings %d)", name, spy.noLinkReads.Load(), spy.noLinkLists.Load())
		}
		if noTrees == nil && spy.trees.Load() == 0 {
			t.Errorf("%s: grep walked by path, not through the disk's tree", name)
		}
		if spy.begins.Load() != 1 || spy.begunCommits.Load() != 1 {
			t.Errorf("%s: the edit began %d batches and committed %d with the disk's batch; want 1 and 1", name, spy.begins.Load(), spy.begunCommits.Load())
		}
	}
}
