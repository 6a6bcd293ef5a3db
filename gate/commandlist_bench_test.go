package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkIsCommandName is the judgment of a name against the PATH's
// commands where every directory may be on PATH (isCommandName): a name
// that is not a command, looked up folded, the directories stamped at
// most every commandsFresh (CommandList).
func BenchmarkIsCommandName(b *testing.B) {
	bin := b.TempDir()
	for _, n := range []string{"ls", "go", "rg", "sed", "git"} {
		os.WriteFile(filepath.Join(bin, n), nil, 0o755)
	}
	p := Places{Roots: []string{b.TempDir()}, PathDirs: []string{bin, "/usr/bin", "/bin"}}.Policy(OS)
	n := names{fold: true}
	p.isCommandName("warm", n)
	for b.Loop() {
		p.isCommandName("notes.txt", n)
	}
}
