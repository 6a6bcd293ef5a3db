//go:build unix

package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// perf's build-id cache (~/.debug) keeps a hard link of each binary it
// profiled. As configuration, the binary's own name outside (a build in
// /tmp) was another name of a protected file, and every step allowed
// outside was refused while it lived. It is data: written as outside, and
// its links protect nothing.
func TestPerfsBuildIDCacheIsData(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, root, out := filepath.Join(base, "home"), filepath.Join(base, "root"), filepath.Join(base, "build")
	cached := filepath.Join(home, ".debug", ".build-id", "ab", "cdef0123")
	for _, d := range []string{root, out, filepath.Dir(cached)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	bin := filepath.Join(out, "prog")
	must(t, os.WriteFile(bin, []byte("\x7fELF"), 0o755))
	must(t, os.Link(bin, cached))
	p := Places{Home: home, Roots: []string{root}}.Policy(OS)
	for _, path := range []string{cached, bin} {
		if c := p.ClassWrite(p.Resolve(root, path)); c != ClassOutside {
			t.Errorf("a write of %s is %v, want %v", path, c, ClassOutside)
		}
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(home, ".bashrc"))); c != ClassProtected {
		t.Errorf("control: a write of ~/.bashrc is %v", c)
	}
}
