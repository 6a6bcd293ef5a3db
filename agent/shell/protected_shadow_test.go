package shell

import (
	"os"
	"path/filepath"
	"testing"
)

// A command installed in a PATH directory during the session (the PATH
// string the same) is a command the next look knows, and an entry
// already in a relative PATH directory named like it is present, not
// made (the seventh red team's).
func TestProtectedShadow_a_command_installed_during_the_session_is_known(t *testing.T) {
	tools, root := t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(root, "sub", "bin", "r7old"))
	path := "./bin:" + tools
	tr := &protectedTree{}
	tr.setShadow([]string{"bin"}, path)
	tr.refresh([]string{root}, []string{".git"})
	mustWrite(t, filepath.Join(tools, "r7tool"))
	mustWrite(t, filepath.Join(tools, "r7old"))
	tr.setShadow([]string{"bin"}, path)
	if !tr.shadow.shadows(filepath.Join(root, "sub", "bin"), "r7tool") {
		t.Fatal("r7tool, installed after the first look, is no shadow")
	}
	present := tr.before([]string{root}, []string{".git"})
	if want := filepath.Join(root, "sub", "bin", "r7old"); !contains(present, want) {
		t.Errorf("sub/bin/r7old (there before r7old was a command) not present: %v", present)
	}
	mustWrite(t, filepath.Join(root, "sub", "bin", "r7tool"))
	made, _ := tr.refresh([]string{root}, []string{".git"})
	if len(made) != 1 || made[0] != filepath.Join(root, "sub", "bin", "r7tool") {
		t.Errorf("made = %v, want sub/bin/r7tool only", made)
	}
}

// BenchmarkSetShadowUnchanged is what the shadow rule adds before every
// process when nothing changed: a stat of each absolute PATH directory.
func BenchmarkSetShadowUnchanged(b *testing.B) {
	tr := &protectedTree{}
	path := "./bin:" + os.Getenv("PATH")
	tr.setShadow([]string{"bin"}, path)
	tr.setShadow([]string{"bin"}, path) // settle racy stamps
	for b.Loop() {
		tr.setShadow([]string{"bin"}, path)
	}
}
