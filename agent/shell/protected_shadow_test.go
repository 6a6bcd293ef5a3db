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
	path := "./bin" + string(os.PathListSeparator) + tools
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

// A link a step makes by which the user's shell reaches a directory with
// a command through a relative PATH entry is a shadow made (the seventh
// red team's sub/bin -> tools): named like the whole entry, like its
// first part (node_modules -> lib, lib/.bin/ls), to a tree out of the
// roots (deep -> top, top/bin/ls), and one whose target gets the command
// only at a later step (the link kept and looked at again).
func TestProtectedShadow_a_link_named_like_a_PATH_entry_is_a_shadow(t *testing.T) {
	needLinks(t)
	tools, root, out := t.TempDir(), t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(tools, "ls"))
	mustWrite(t, filepath.Join(root, "a"))
	names := []string{".git"}
	tr := &protectedTree{}
	tr.setShadow([]string{"bin", "node_modules/.bin"}, "./bin:node_modules/.bin:"+tools)
	tr.refresh([]string{root}, names)
	link := func(to, at string) string {
		t.Helper()
		p := filepath.Join(root, at)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mustWrite(t, filepath.Join(root, "s1", "tools", "ls"))
	mustWrite(t, filepath.Join(root, "s2", "lib", ".bin", "ls"))
	mustWrite(t, filepath.Join(out, "top", "bin", "ls"))
	mustWrite(t, filepath.Join(root, "s4", "empty", "x"))
	want := []string{link("tools", "s1/bin"), link("lib", "s2/node_modules"), link(filepath.Join(out, "top"), "s3/deep")}
	later := link("empty", "s4/bin")
	mustWrite(t, filepath.Join(root, "s5", "other", "x"))
	link("other", "s5/bin") // no command: stays
	made, _ := tr.refresh([]string{root}, names)
	for _, w := range want {
		if !contains(made, w) {
			t.Errorf("%s not made: %v", w, made)
		}
	}
	if contains(made, later) || len(made) != len(want) {
		t.Errorf("made = %v, want %v", made, want)
	}
	mustWrite(t, filepath.Join(root, "s4", "empty", "ls"))
	if made, _ := tr.refresh([]string{root}, names); !contains(made, later) {
		t.Errorf("s4/bin -> empty, ls made in empty later: not made: %v", made)
	}
}
