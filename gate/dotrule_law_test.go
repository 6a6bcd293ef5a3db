package gate

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Beyond the seed (the fifth red team): the home's configuration is every
// dot-entry of the home and what is below it, but the caches tools write
// (HomeWritable). A write there is protected; a write to the home's other
// entries is only outside; a cache is only outside, but the places in it
// a shell or git runs code from (HomeNeverWritable).
func TestLaw_home_configuration_is_protected(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "work")
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	part := rapid.StringMatching(`[a-z][a-z0-9_-]{0,6}`)
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(part, 1, 4).Draw(t, "parts")
		dot := rapid.Bool().Draw(t, "dot")
		cache := rapid.SampledFrom(append([]string{""}, HomeWritable...)).Draw(t, "cache")
		rel := filepath.Join(parts...)
		switch {
		case cache != "":
			rel = filepath.Join(cache, rel)
		case dot:
			rel = "." + rel
		}
		got := p.Class(Resolve(OS, root, filepath.Join(home, rel)))
		want := ClassOutside
		if cache == "" && dot || slices.ContainsFunc(HomeNeverWritable, func(n string) bool { return strings.HasPrefix(rel, n) }) {
			want = ClassProtected // a place a shell or git runs code from stays covered
		}
		if got != want {
			t.Fatalf("~/%s: %v, want %v", rel, got, want)
		}
	})
}
