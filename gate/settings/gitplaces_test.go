package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func put(t testing.TB, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The places git finds programs in for a root, outside its .git: a
// linked worktree's git and common directories, the user's config and
// what it and the repository's config include (cycles too) and name as
// hooks.
func TestGitPlaces(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	main := filepath.Join(home, "main")
	wt := filepath.Join(home, "wt")
	put(t, filepath.Join(main, ".git", "config"), "[include]\n\tpath = ../shared.inc\n[core]\n\thooksPath = .githooks\n")
	put(t, filepath.Join(main, ".git", "worktrees", "wt", "commondir"), "../..\n")
	put(t, filepath.Join(main, ".git", "worktrees", "wt", "config.worktree"), "[core]\n\thooksPath = /abs/hooks\n")
	put(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "wt")+"\n")
	put(t, filepath.Join(main, "shared.inc"), "[includeIf \"gitdir:x\"]\n\tpath = ~/deep.inc\n")
	put(t, filepath.Join(home, "deep.inc"), "[include]\n\tpath = main/shared.inc\n") // a cycle
	put(t, filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = ~/global-hooks\n")
	got := GitPlaces([]string{wt}, home, map[string]string{})
	for _, want := range []string{
		filepath.Join(main, ".git", "worktrees", "wt"), filepath.Join(main, ".git"),
		filepath.Join(main, "shared.inc"), filepath.Join(home, "deep.inc"), filepath.Join(wt, ".githooks"),
		"/abs/hooks", filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git"),
		filepath.Join(home, "global-hooks"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("want %s in %q", want, got)
		}
	}
	// a plain repository adds nothing of its own beyond the user's config
	plain := filepath.Join(home, "plain")
	put(t, filepath.Join(plain, ".git", "config"), "[core]\n\tbare = false\n")
	if got := GitPlaces([]string{plain}, home, map[string]string{"XDG_CONFIG_HOME": filepath.Join(base, "x")}); slices.ContainsFunc(got, func(p string) bool {
		return p == filepath.Join(plain, ".git") || p == filepath.Join(home, ".config", "git")
	}) || !slices.Contains(got, filepath.Join(base, "x", "git")) {
		t.Errorf("a plain repository: %q", got)
	}
}
