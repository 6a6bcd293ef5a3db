package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// With every directory on PATH (an entry ".", or a shell that did not
// say its PATH in time), a file named like a command is protected at any
// depth, and only such a file; without it, it is a plain file. An
// unanswered shell protects no other entry of the roots (an entry "."
// protects each, as a directory on PATH: with a slow ~/.bashrc every
// write in the workspace became protected).
func TestEveryDirectoryOnPATHProtectsCommandNamesAtAnyDepth(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "usr", "bin")
	must(t, os.MkdirAll(filepath.Join(root, "sub", "tools"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/bin/sh\n"), 0o755))
	for _, c := range []struct {
		pathDirs []string
		unknown  bool
		path     string
		want     Class
	}{
		{[]string{bin, "."}, false, filepath.Join(root, "sub", "tools", "mytool"), ClassProtected},
		{[]string{bin, "."}, false, filepath.Join(root, "sub", "tools", "notes.txt"), ClassInside},
		{[]string{bin, "."}, false, filepath.Join(base, "elsewhere", "mytool"), ClassProtected},
		{[]string{bin, "."}, false, filepath.Join(root, "notes.txt"), ClassProtected},
		{[]string{bin}, false, filepath.Join(root, "sub", "tools", "mytool"), ClassInside},
		{[]string{bin}, true, filepath.Join(root, "sub", "tools", "mytool"), ClassProtected},
		{[]string{bin}, true, filepath.Join(root, "mytool"), ClassProtected},
		{[]string{bin}, true, filepath.Join(base, "elsewhere", "mytool"), ClassProtected},
		{[]string{bin}, true, filepath.Join(root, "sub", "tools", "notes.txt"), ClassInside},
		{[]string{bin}, true, filepath.Join(root, "notes.txt"), ClassInside},
	} {
		p := Places{Roots: []string{root}, PathDirs: c.pathDirs, PathUnknown: c.unknown}.Policy(OS)
		if got := p.ClassWrite(p.Resolve(root, c.path)); got != c.want {
			t.Errorf("PATH %v (unknown %v): a write of %s is %v, want %v", c.pathDirs, c.unknown, c.path, got, c.want)
		}
	}
}
