package gate

// The seventeenth red team's attacks on the gate that HELD (the open ones
// are in redteam17_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"testing"
)

// r17unknown is a workspace with a tools directory and a PATH directory
// holding the command r17cmd, and the policy of an unknown PATH there.
func r17unknown(t *testing.T) (root string, p *Policy) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "bin")
	must(t, os.MkdirAll(filepath.Join(root, "tools", "sub"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r17cmd"), []byte("#!/bin/sh\n"), 0o755))
	return root, Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
}

// Attack (target 1b): the name of a write spelled so its last element is
// not the command's: tools/./r17cmd, tools//r17cmd, tools/sub/../r17cmd,
// tools/r17cmd/ (a trailing slash), and through a symbolic link the
// agent made (tools/alias -> r17cmd, a write of tools/alias).
// Held: each is protected (the path is resolved before its base is
// compared: gate Resolve, Policy.protectsAs).
func TestRedteam17_CommandNameSpelledOtherwiseIsStillProtected(t *testing.T) {
	root, p := r17unknown(t)
	must(t, os.Symlink("r17cmd", filepath.Join(root, "tools", "alias")))
	for _, w := range []string{"tools/./r17cmd", "tools//r17cmd", "tools/sub/../r17cmd", "tools/r17cmd/", "tools/alias"} {
		if c := p.ClassWrite(p.Resolve(root, root+"/"+w)); c != ClassProtected {
			t.Errorf("a write of %s is %v, want protected", w, c)
		}
	}
}
