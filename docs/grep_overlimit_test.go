package docs

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A grep over a tree counts a file over the 4 MiB limit without reading
// it: a 1 GiB file (sparse) costs the walk no more than a small one. Each
// grep of a workspace that held a 50 MB file had read it whole, and the
// session stayed at hundreds of MiB.
func TestGrepTreeDoesNotReadAFileOverTheLimit(t *testing.T) {
	root := t.TempDir()
	big, err := os.Create(filepath.Join(root, "big.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644)
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	m, _ := NewLineMatcher("needle", true, false)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, tally := tools.grepTree(context.Background(), m, root, GrepArgs{Pattern: "needle", Literal: true}, nil)
	runtime.ReadMemStats(&after)
	if tally.Count[OverLimit] != 1 || !strings.Contains(res.Text, "over the 4 MiB limit") || !strings.Contains(res.Text, "a.txt") {
		t.Fatalf("over limit %d:\n%s", tally.Count[OverLimit], res.Text)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Fatalf("the grep allocated %d MiB: it read the file over the limit", grew>>20)
	}
}

// A grep of one file over the limit is refused before its bytes are read.
func TestGrepFileOverTheLimitIsNotRead(t *testing.T) {
	root := t.TempDir()
	big, err := os.Create(filepath.Join(root, "big.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := tools.Grep(context.Background(), GrepArgs{Pattern: "needle", Path: "big.log"})
	runtime.ReadMemStats(&after)
	if !res.Failed || !strings.Contains(res.Text, "over the 4 MiB limit") {
		t.Fatalf("%v %s", res.Failed, res.Text)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Fatalf("the grep allocated %d MiB: it read the file", grew>>20)
	}
}
