package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// Workspace is a fresh workspace for an editor's end-to-end test, all of
// it removed when the test ends: Root holds the files, Home is HOME,
// Config the user's config directory (its eukhe/settings.json written),
// and Run a short XDG_RUNTIME_DIR (a socket's path has at most 107
// bytes, more than a test's temp directory leaves).
type Workspace struct {
	Base, Root, Home, Config, Run string
}

// NewWorkspace makes a workspace whose root holds files (name → text)
// and whose user settings file holds settings.
func NewWorkspace(t testing.TB, files map[string]string, settings string) Workspace {
	t.Helper()
	base := t.TempDir()
	w := Workspace{Base: base, Root: filepath.Join(base, "ws"), Home: filepath.Join(base, "home"), Config: filepath.Join(base, "config")}
	for _, d := range []string{w.Root, w.Home, filepath.Join(w.Config, "eukhe")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(w.Root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w.Config, "eukhe", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	run, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	w.Run = run
	return w
}

// Env is this process's environment with HOME, XDG_CONFIG_HOME,
// XDG_STATE_HOME (below Home) and XDG_RUNTIME_DIR set to the
// workspace's, then more.
func (w Workspace) Env(more ...string) []string {
	env := append(os.Environ(), "HOME="+w.Home, "XDG_CONFIG_HOME="+w.Config, "XDG_STATE_HOME="+filepath.Join(w.Home, "state"),
		"XDG_RUNTIME_DIR="+w.Run)
	return append(env, more...)
}
