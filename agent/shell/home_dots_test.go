package shell

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// A directory the user named writable (shell.writableDirs: ~/.cache)
// keeps the places of gate.HomeNeverWritable in it covered, present
// before the process and made by it (the seventh red team's).
func TestHomeDots_a_writable_directory_keeps_its_code_places_covered(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, ".cache")
	for _, f := range []string{"p10k-instant-prompt-me.zsh", "pre-commit/repo/bin/black", "go-build/x"} {
		mustWrite(t, filepath.Join(cache, f))
	}
	h := lookHomeDots([]gate.Rule{{Path: home}}, []string{cache})
	for _, want := range []string{"p10k-instant-prompt-me.zsh", "pre-commit"} {
		if !slices.Contains(h.covered, filepath.Join(cache, want)) {
			t.Errorf("%s not covered: %v", want, h.covered)
		}
	}
	if slices.Contains(h.covered, filepath.Join(cache, "go-build")) || slices.Contains(h.covered, cache) {
		t.Errorf("the writable cache itself covered: %v", h.covered)
	}
	mustWrite(t, filepath.Join(cache, "gitstatus", "gitstatusd"))
	mustWrite(t, filepath.Join(cache, "pip", "x"))
	if made := h.made(); !slices.Equal(made, []string{filepath.Join(cache, "gitstatus")}) {
		t.Errorf("made = %v, want only the new gitstatus", made)
	}
}

func mustWrite(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A cache directory that is a link to a bigger disk (~/.cache ->
// /scratch/me/cache) is looked at where it leads: its code places are
// covered at their real paths, its caches stay writable (not the whole
// target read-only), and the link is kept to look at again (the seventh
// red team's).
func TestHomeDots_a_cache_directory_that_is_a_link_is_looked_at_where_it_leads(t *testing.T) {
	needLinks(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, disk := filepath.Join(base, "home"), filepath.Join(base, "disk", "cache")
	for _, f := range []string{"p10k-instant-prompt-me.zsh", "pre-commit/repo/bin/black", "go-build/x"} {
		mustWrite(t, filepath.Join(disk, f))
	}
	mustWrite(t, filepath.Join(home, ".bashrc"))
	if err := os.Symlink(disk, filepath.Join(home, ".cache")); err != nil {
		t.Fatal(err)
	}
	h := lookHomeDots([]gate.Rule{{Path: home}}, nil)
	for _, want := range []string{filepath.Join(disk, "p10k-instant-prompt-me.zsh"), filepath.Join(disk, "pre-commit"), filepath.Join(home, ".bashrc")} {
		if !slices.Contains(h.covered, want) {
			t.Errorf("%s not covered: %v", want, h.covered)
		}
	}
	if slices.Contains(h.covered, filepath.Join(home, ".cache")) || slices.Contains(h.covered, filepath.Join(disk, "go-build")) {
		t.Errorf("the linked cache covered whole or its caches: %v", h.covered)
	}
	if !slices.Equal(h.links, []string{filepath.Join(home, ".cache")}) {
		t.Errorf("links = %v", h.links)
	}
	mustWrite(t, filepath.Join(disk, "gitstatus", "gitstatusd"))
	if made := h.made(); !slices.Equal(made, []string{filepath.Join(disk, "gitstatus")}) {
		t.Errorf("made = %v, want the new gitstatus at its real path", made)
	}
}
