package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A grep longer than the interval is told its progress, then one End with
// every file searched; a grep shorter than it is told nothing.
func TestGrepProgress(t *testing.T) {
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
	var mu sync.Mutex
	var got []WalkProgress
	slow := &slowStore{Store: NewDisk(), pause: time.Millisecond}
	tools := &Tools{Store: slow, Session: NewSession(), Root: root, ProgressEvery: 5 * time.Millisecond,
		Progress: func(p WalkProgress) { mu.Lock(); got = append(got, p); mu.Unlock() }}
	if res := tools.Grep(context.Background(), GrepArgs{Pattern: "beta"}); res.Failed {
		t.Fatal(res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 3 {
		t.Fatalf("told %d times: %+v", len(got), got)
	}
	last := got[len(got)-1]
	if !last.End || last.Done != 300 || last.What != "grep beta in ." {
		t.Fatalf("last call %+v", last)
	}
	for i, p := range got[:len(got)-1] {
		if p.End || (i > 0 && p.Done < got[i-1].Done) {
			t.Fatalf("call %d: %+v", i, p)
		}
	}
	got = nil
	tools.Store, tools.ProgressEvery = NewDisk(), time.Hour
	tools.Grep(context.Background(), GrepArgs{Pattern: "beta"})
	if len(got) != 0 {
		t.Fatalf("a short grep was told %+v", got)
	}
}

// slowStore reads each file after a pause: a walk long enough to report.
type slowStore struct {
	Store
	pause time.Duration
}

func (s *slowStore) Read(path string) (Snapshot, error) {
	time.Sleep(s.pause)
	return s.Store.Read(path)
}
