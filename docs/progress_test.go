package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// progressTree is 300 files in 30 directories under a new root.
func progressTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i := range 300 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%30))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte("alpha\nbeta\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// collect is a progress sink that keeps every report.
type collect struct {
	mu  sync.Mutex
	got []Progress
}

func (c *collect) sink(p Progress) { c.mu.Lock(); c.got = append(c.got, p); c.mu.Unlock() }

func (c *collect) take() []Progress {
	c.mu.Lock()
	defer c.mu.Unlock()
	got := c.got
	c.got = nil
	return got
}

// checkWalkReports: at least three reports, the counts never falling,
// one End last with the final count and message.
func checkWalkReports(t *testing.T, got []Progress, what, end string, done int) {
	t.Helper()
	if len(got) < 3 {
		t.Fatalf("told %d times: %+v", len(got), got)
	}
	last := got[len(got)-1]
	if !last.End || last.Done != done || last.What != what || last.Message != end {
		t.Fatalf("last report %+v", last)
	}
	for i, p := range got[:len(got)-1] {
		if p.End || p.What != what || (i > 0 && p.Done < got[i-1].Done) {
			t.Fatalf("report %d: %+v", i, p)
		}
	}
}

// A grep or glob longer than the interval tells the call's sink its
// progress, then one End with every file searched (considered); a walk
// shorter than it, or a call without a sink, tells nothing.
func TestWalkProgress(t *testing.T) {
	root := progressTree(t)
	var c collect
	ctx := WithProgress(context.Background(), c.sink)
	slow := &slowStore{Store: NewDisk(), pause: time.Millisecond}
	tools := &Tools{Store: slow, Session: NewSession(), Root: root, ProgressEvery: 5 * time.Millisecond}
	if res := tools.Grep(ctx, GrepArgs{Pattern: "beta"}); res.Failed {
		t.Fatal(res.Text)
	}
	checkWalkReports(t, c.take(), "grep beta in .", "300 files searched", 300)

	slowStat := &slowStatStore{Store: NewDisk(), pause: time.Millisecond}
	tools.Store = slowStat
	if res := tools.Glob(ctx, GlobArgs{Pattern: "f1*.txt"}); res.Failed {
		t.Fatal(res.Text)
	}
	checkWalkReports(t, c.take(), "glob f1*.txt in .", "300 files considered", 300)

	tools.Store = slow
	tools.Grep(context.Background(), GrepArgs{Pattern: "beta"})
	tools.Store, tools.ProgressEvery = NewDisk(), time.Hour
	tools.Grep(ctx, GrepArgs{Pattern: "beta"})
	tools.Glob(ctx, GlobArgs{Pattern: "*.txt"})
	if got := c.take(); len(got) != 0 {
		t.Fatalf("told of a short walk, or without a sink: %+v", got)
	}
}

// slowStore reads each file after a pause: a walk long enough to report.
type slowStore struct {
	Store
	pause time.Duration
}

func (s *slowStore) OpenTree(dir string, real bool) (Tree, error) {
	return openWatched(s.Store, dir, real, watchedTree{read: func(string) { time.Sleep(s.pause) }})
}

func (s *slowStore) Read(path string) (Snapshot, error) {
	time.Sleep(s.pause)
	return s.Store.Read(path)
}

// slowStatStore stats each path after a pause: a glob long enough to
// report.
type slowStatStore struct {
	Store
	pause time.Duration
}

func (s *slowStatStore) OpenTree(dir string, real bool) (Tree, error) {
	return openWatched(s.Store, dir, real, watchedTree{stat: func(string) { time.Sleep(s.pause) }})
}

func (s *slowStatStore) Stat(path string) (Stat, error) {
	time.Sleep(s.pause)
	return s.Store.Stat(path)
}

// progress_watch_ordered: whatever the ticks, a watch's reports are its
// now(n) for n = 1, 2, … in order, and the End report, made only after at
// least one other, is the last, numbered one past it; nothing comes after
// stop returns.
func TestLaw_progress_watch_ordered(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ticks := rapid.IntRange(0, 5).Draw(rt, "ticks")
		var mu sync.Mutex
		var got []Progress
		seen := make(chan struct{}, 16)
		stop := WatchProgress(func(p Progress) {
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
			seen <- struct{}{}
		}, time.Millisecond, func(n int) Progress { return Progress{Done: n} })
		for range ticks {
			<-seen
		}
		stop()
		stop()
		mu.Lock()
		defer mu.Unlock()
		if len(got) < ticks {
			rt.Fatalf("%d reports, %d ticks seen", len(got), ticks)
		}
		if len(got) == 1 {
			rt.Fatalf("an End alone: %+v", got)
		}
		for i, p := range got {
			if p.Done != i+1 || p.End != (i == len(got)-1) {
				rt.Fatalf("report %d: %+v of %+v", i, p, got)
			}
		}
	})
}
