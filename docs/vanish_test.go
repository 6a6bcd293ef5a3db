package docs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// vanishingStore loses one file between the listing and the read, on
// the walk's tree as on a read by path.
type vanishingStore struct {
	Store
	gone string
}

func (v vanishingStore) OpenTree(dir string, real bool) (Tree, error) {
	return openWatched(v.Store, dir, real, watchedTree{gone: func(rel string) bool { return filepath.Base(rel) == v.gone }})
}

func (v vanishingStore) Read(path string) (Snapshot, error) {
	if filepath.Base(path) == v.gone {
		return Snapshot{}, nil
	}
	return v.Store.Read(path)
}

// A file that vanishes mid-walk is a counted walk error, never dropped.
func TestGrepCountsAFileGoneMidWalk(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.txt"), "needle\n")
	mustWrite(t, filepath.Join(root, "b.txt"), "needle\n")
	tools := &Tools{Store: vanishingStore{NewDisk(), "b.txt"}, Session: NewSession(), Root: root}
	out := tools.Grep(context.Background(), GrepArgs{Pattern: "needle"}).Text
	if !strings.Contains(out, "[1 walk error: b.txt]") || !strings.Contains(out, "[a.txt#") {
		t.Fatalf("grep over a vanished file:\n%s", out)
	}
}
