package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The search for other names of the home's configuration, whole, as each
// process of a session starts: a home of 20,000 configuration files
// (~/.vscode's extensions, ~/.local/share's tools), walked each time (a
// nil cache) and through the session's cache (walked once a minute).
// The ratio is what the cache saves each process. A workspace with no
// file named outside it is not searched for the home's files at all.
func BenchmarkLinkSearchOfALargeHome(b *testing.B) {
	base, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	root, conf := filepath.Join(base, "root"), filepath.Join(base, "home", ".vscode")
	for d := 0; d < 200; d++ {
		dir := filepath.Join(conf, "extensions", fmt.Sprintf("ext%d", d), "out")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.js", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Link(filepath.Join(conf, "extensions", "ext7", "out", "f3.js"), filepath.Join(root, "main.js")); err != nil {
		b.Fatal(err)
	}
	plainRoot := filepath.Join(base, "plain")
	for f := 0; f < 1000; f++ {
		if err := os.MkdirAll(filepath.Join(plainRoot, fmt.Sprintf("d%d", f/100)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plainRoot, fmt.Sprintf("d%d", f/100), fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// a workspace of 1,000 files none of which has a name outside it: a
	// look at it spares the home's walk (links_strangers.go)
	b.Run("a workspace without strangers", func(b *testing.B) {
		for b.Loop() {
			if r := (*LinkCache)(nil).Search(OS.(InodeFS), []string{conf}, []int{-1}, []string{plainRoot}, nil); len(r.Links) != 0 {
				b.Fatalf("links %v", r.Links)
			}
		}
	})
	tops, depths, roots := []string{conf}, []int{-1}, []string{root}
	for _, c := range []struct {
		name  string
		cache *LinkCache
	}{{"walked each time", nil}, {"kept by the session", &LinkCache{}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if r := c.cache.Search(OS.(InodeFS), tops, depths, roots, nil); len(r.Links) != 1 {
					b.Fatalf("links %v", r.Links)
				}
			}
		})
	}
}
