package gate

import (
	"path/filepath"
	"testing"
)

// The host's volume is asked, once per directory: a missing path is
// answered by its nearest existing ancestor, and the answer is kept.
func TestOSCaseInsensitiveAsksTheVolume(t *testing.T) {
	dir := t.TempDir()
	got := OS.(CaseFolder).CaseInsensitive(dir)
	t.Logf("the temporary directory's volume folds case: %v", got)
	if below := OS.(CaseFolder).CaseInsensitive(filepath.Join(dir, "missing", "deeper")); below != got {
		t.Errorf("a missing path below it answers %v, the directory %v", below, got)
	}
	foldCache.Lock()
	_, kept := foldCache.m[dir]
	foldCache.Unlock()
	if !kept {
		t.Errorf("the answer for the directory was not kept")
	}
	if n := namesAt(OS, filepath.Join(dir, "x")); n.short {
		t.Errorf("Linux's file system takes Windows short names")
	}
}
