package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// world is a home with credential stores, eukhe's config and a project,
// made of real files in a temporary directory.
type world struct {
	base, home, root, userDir, bin string
	policy                         *Policy
}

func newWorld(t testing.TB) *world {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{base: base, home: filepath.Join(base, "home"), bin: filepath.Join(base, "bin")}
	w.root = filepath.Join(w.home, "proj")
	w.userDir = filepath.Join(w.home, ".config", "eukhe")
	for _, d := range []string{
		".ssh", ".aws", ".config/eukhe", ".config/gh", "proj/.git/hooks", "proj/.eukhe",
		"proj/src", "proj/sub/.git", "notes",
	} {
		mustMkdir(t, filepath.Join(w.home, d))
	}
	mustMkdir(t, w.bin)
	for _, f := range []string{
		".ssh/id_ed25519", ".netrc", ".config/eukhe/settings.json", ".config/eukhe/auth.json",
		"proj/a.txt", "proj/src/main.go", "proj/.eukhe/settings.json", "proj/.git/config",
		"notes/todo.md",
	} {
		if err := os.WriteFile(filepath.Join(w.home, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A committed symlink to the user's ssh keys, and a loop.
	mustLink(t, filepath.Join(w.home, ".ssh"), filepath.Join(w.root, "keys"))
	mustLink(t, filepath.Join(w.root, "loop2"), filepath.Join(w.root, "loop1"))
	mustLink(t, filepath.Join(w.root, "loop1"), filepath.Join(w.root, "loop2"))
	mustLink(t, filepath.Join(w.base, "elsewhere", "new.txt"), filepath.Join(w.root, "dangling"))
	pl := Places{
		Home: w.home, UserDir: w.userDir, Roots: []string{w.root},
		SettingsFiles: []string{filepath.Join(w.userDir, "settings.json"), filepath.Join(w.root, ".eukhe", "settings.json")},
		PathDirs:      []string{w.bin},
	}
	w.policy = pl.Policy(OS)
	return w
}

func (w *world) shell(dir string) *Shell {
	return &Shell{Policy: w.policy, Dir: dir, ReadDir: os.ReadDir,
		Env: map[string]string{"HOME": w.home, "PATH": w.bin + ":/usr/bin", "BIN": w.bin}}
}

func mustMkdir(t testing.TB, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustRename(t testing.TB, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}
