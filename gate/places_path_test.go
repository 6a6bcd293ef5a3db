package gate

import (
	"path/filepath"
	"slices"
	"testing"
)

// PATH entries as the user's shell reads them: "~/bin" is the home's bin
// (bash expands the tilde at each search), and "../bin" is a bin beside
// wherever the shell is, so every path ending in /bin.
func TestPlaces_path_entries_as_the_shell_reads_them(t *testing.T) {
	if !filepath.IsAbs("/w") {
		t.Skip("the roots, home and PATH entries here are Unix paths, which are not absolute on Windows")
	}
	pl := Places{Roots: []string{"/w"}, Home: "/h", PathDirs: []string{"~/bin", "~", "../bin", "../../tools/bin", "../.local/bin", "./node_modules/.bin", "..", ""}}
	rs := pl.Rules()
	for _, want := range []Rule{
		{Kind: DirRule, Path: "/h/bin"},
		{Kind: DirRule, Path: "/h"},
		{Kind: EndRule, Name: "bin"},
		{Kind: EndRule, Name: "tools/bin"},
		{Kind: EndRule, Name: ".local/bin"},
		{Kind: EndRule, Name: "node_modules/.bin"},
		{Kind: EndRule, Name: ""},
		{Kind: DirRule, Path: "/w/node_modules/.bin"},
		{Kind: DirRule, Path: "/w"},
	} {
		if !slices.Contains(rs, want) {
			t.Errorf("no rule %+v in %+v", want, rs)
		}
	}
	for _, r := range rs {
		if r.Kind == EndRule && (r.Name == "." || r.Name == "..") {
			t.Errorf("an end rule named like a relative step: %+v", r)
		}
	}
}

// lefthook's config by every name it reads is protected, and not its own
// npm package's names.
func TestNamedProtected_lefthook(t *testing.T) {
	for name, want := range map[string]bool{
		"lefthook.toml": true, ".lefthook.json": true, "lefthook-local.jsonc": true, ".lefthook-local.yml": true,
		".lefthook": true, ".lefthook-local": true, "lefthook": false, "lefthook-linux-x64": false,
	} {
		if got := NameIn(NamedProtected, name); got != want {
			t.Errorf("NameIn(NamedProtected, %q) = %v", name, got)
		}
	}
}

// The places in a cache that a shell or git runs code from stay covered.
func TestDotCovers_never_writable_places_in_caches(t *testing.T) {
	for rel, want := range map[string]bool{
		".cache/p10k-instant-prompt-me.zsh": true, ".cache/pre-commit/repo1/hook.py": true,
		".cache/go-build/00/x": false, ".gradle/wrapper/dists/x/bin/gradle": true, ".gradle/caches/x": false,
	} {
		if got := DotCovers(rel); got != want {
			t.Errorf("DotCovers(%q) = %v", rel, got)
		}
	}
}
