package settings

import (
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// BenchmarkGitWatchRefresh is what the git places' look adds to each tool
// call: a stat of each file the places were read from.
func BenchmarkGitWatchRefresh(b *testing.B) {
	base := b.TempDir()
	root := filepath.Join(base, "home", "proj")
	put(b, filepath.Join(root, ".git", "config"), "[core]\n\thooksPath = .githooks\n")
	put(b, filepath.Join(base, "home", ".gitconfig"), "[include]\n\tpath = ~/shared.inc\n")
	g := NewGitWatch([]string{root}, filepath.Join(base, "home"), map[string]string{})
	p := gate.NewPolicy(gate.OS, []string{root}, nil, nil)
	for b.Loop() {
		g.Refresh(p)
	}
}
