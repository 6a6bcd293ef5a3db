package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// LearnLinks finds a link made in a hooks directory after the policy,
// and again after its place was looked in unchanged (the stamps skip
// only places that did not change).
func TestLearnLinksFindsALinkMadeAfterThePolicy(t *testing.T) {
	needSymlinks(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, root := filepath.Join(base, "home"), filepath.Join(base, "w")
	for _, d := range []string{home, filepath.Join(root, ".git", "hooks"), filepath.Join(root, "scripts")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pc := filepath.Join(root, "scripts", "pc.sh")
	if err := os.WriteFile(pc, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
	class := func() Class { return p.Class(p.Resolve(root, pc)) }
	p.LearnLinks() // nothing changed: nothing listed, nothing learned
	if c := class(); c != ClassInside {
		t.Fatalf("before the link: %v", c)
	}
	if err := os.Symlink("../../scripts/pc.sh", filepath.Join(root, ".git", "hooks", "pre-commit")); err != nil {
		t.Fatal(err)
	}
	p.LearnLinks()
	if c := class(); c != ClassProtected {
		t.Errorf("the linked hook's target is %v after LearnLinks", c)
	}
}

// BenchmarkLearnLinksUnchanged is the cost LearnLinks adds to every
// process allowed protected when nothing changed: a stat per place.
func BenchmarkLearnLinksUnchanged(b *testing.B) {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	p := Places{Roots: []string{root}, Home: home, PathDirs: []string{"/usr/bin", "/bin"}}.Policy(OS)
	b.ResetTimer()
	for range b.N {
		p.LearnLinks()
	}
}
