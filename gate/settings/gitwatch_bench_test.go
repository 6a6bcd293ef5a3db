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

// BenchmarkGitWatchNear is what a write's judgment pays for finding a
// repository made below the root during the session: a stat of .git in
// each directory from the written path up to the root (here five, one of
// them a known nested repository).
func BenchmarkGitWatchNear(b *testing.B) {
	base := b.TempDir()
	home := filepath.Join(base, "home")
	root := filepath.Join(home, "proj")
	put(b, filepath.Join(root, ".git", "config"), "[core]\n\tbare = false\n")
	put(b, filepath.Join(root, "vendor", "lib", ".git", "config"), "[core]\n\thooksPath = .githooks\n")
	g := NewGitWatch([]string{root}, home, map[string]string{})
	p := gate.NewPolicy(gate.OS, []string{root}, nil, nil)
	near := g.Near(p)
	path := filepath.Join(root, "vendor", "lib", "src", "a", "b", "x.go")
	for b.Loop() {
		near(path)
	}
}
