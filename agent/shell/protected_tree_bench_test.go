package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkProtectedTreeRefresh is the look a step costs on a tree of
// 20,000 directories that did not change (every directory stat'ed, none
// listed), and the first map of it.
func BenchmarkProtectedTreeRefresh(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 200; i++ {
		for j := 0; j < 100; j++ {
			os.MkdirAll(filepath.Join(root, fmt.Sprintf("d%d/e%d", i, j)), 0o755)
		}
	}
	names := []string{".git", ".vscode"}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			(&protectedTree{}).refresh([]string{root}, names)
		}
	})
	b.Run("first-watched", func(b *testing.B) {
		for b.Loop() {
			tr := &protectedTree{}
			tr.live.enable()
			tr.refresh([]string{root}, names)
			tr.live.close()
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		tr := &protectedTree{}
		tr.refresh([]string{root}, names)
		tr.refresh([]string{root}, names) // settle racy entries
		for b.Loop() {
			tr.refresh([]string{root}, names)
		}
	})
}

// BenchmarkProtectedTreeBeyond is what each refresh adds for 20,000
// directories past the map's bound: a walk that lists them all.
func BenchmarkProtectedTreeBeyond(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 200; i++ {
		for j := 0; j < 100; j++ {
			os.MkdirAll(filepath.Join(root, fmt.Sprintf("d%d/e%d", i, j)), 0o755)
		}
	}
	tr := &protectedTree{names: []string{".git", ".vscode"}, frontier: []string{root}, dirs: map[string]*treeDir{}}
	for b.Loop() {
		tr.walkBeyond()
	}
}
