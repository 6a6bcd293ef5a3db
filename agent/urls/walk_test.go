package urls

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// segment draws one URL path segment: the moves, and names that hold the
// characters a naive walker mistakes for moves.
func urlSegment() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"..", ".", "", "...", "~", ".x", "x..", `\..`, "a b", "%2e%2e", "..:5"}),
		rapid.StringMatching(`[a-z.~:%-]{1,4}`),
	)
}

// walkModel is S7.6 written as a depth count over the segments: the names
// the path ends at, or escaped when the depth goes below the root at any
// point.
func walkModel(segs []string) (names []string, escaped bool) {
	for _, s := range segs {
		switch s {
		case "", ".":
		case "..":
			if len(names) == 0 {
				return nil, true
			}
			names = names[:len(names)-1]
		default:
			names = append(names, s)
		}
	}
	return names, false
}

// TestLaw_path_rejects_escape: a path that goes above its root at any point
// is rejected, and never clamped into a path under the root: the walk gives
// no names at all, whatever follows the climb.
func TestLaw_path_rejects_escape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// A path that stays inside, then more ".." than its depth, then
		// anything at all.
		inside := rapid.SliceOfN(urlSegment(), 0, 6).Draw(t, "inside")
		names, escaped := walkModel(inside)
		if escaped {
			inside = nil
			names = nil
		}
		climb := len(names) + 1 + rapid.IntRange(0, 2).Draw(t, "extra")
		segs := slices.Clone(inside)
		for range climb {
			segs = append(segs, "..")
			if rapid.Bool().Draw(t, "dot") {
				segs = append(segs, rapid.SampledFrom([]string{".", ""}).Draw(t, "still"))
			}
		}
		segs = append(segs, rapid.SliceOfN(urlSegment(), 0, 6).Draw(t, "after")...)
		path := strings.Join(segs, "/")
		got, ok := WalkPath(path)
		if ok || got != nil {
			t.Fatalf("WalkPath(%q) = %q, %v; want rejected (escapes), not clamped", path, got, ok)
		}
		// The same path with a leading '/' (repo:///x) is no different: an
		// empty segment does not move.
		if got, ok := WalkPath("/" + path); ok {
			t.Fatalf("WalkPath(%q) = %q; want rejected", "/"+path, got)
		}
	})
}

// TestLaw_path_resolves_inside: a path that never goes above its root
// resolves, to the names the depth model gives; joined under any root the
// result is under that root, and it holds only names (no "", "." or "..",
// no '/').
func TestLaw_path_resolves_inside(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		segs := rapid.SliceOfN(urlSegment(), 0, 12).Draw(t, "segs")
		want, escaped := walkModel(segs)
		path := strings.Join(segs, "/")
		got, ok := WalkPath(path)
		if escaped {
			if ok {
				t.Fatalf("WalkPath(%q) = %q; the model says it escapes", path, got)
			}
			return
		}
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("WalkPath(%q) = %q, %v; want %q", path, got, ok, want)
		}
		for _, n := range got {
			if n == "" || n == "." || n == ".." || strings.Contains(n, "/") {
				t.Fatalf("WalkPath(%q) gave the segment %q, which is not a name", path, n)
			}
		}
		// A name is joined under a directory of this machine only as the
		// local walk gives it (walkLocal: on Windows a backslash divides
		// too, and "\.." climbs): joined, it stays under the root.
		local, err := walkLocal(path, windowsNames)
		if err != nil {
			return
		}
		root := filepath.FromSlash("/srv/work")
		if j := filepath.Join(append([]string{root}, local...)...); !within(root, j) {
			t.Fatalf("walkLocal(%q) = %q joins to %s, outside %s", path, local, j, root)
		}
	})
}

// TestLaw_path_resolves_inside_windows: the local walk with Windows
// names, on any host: a path that climbs above its root with ".." parts
// divided by '/' or '\' is escapes; any other gives only names Windows
// opens as themselves (no separator of either kind, no ':' of a drive or
// a stream, no part of only dots and spaces, no device), so a join of
// them under a root stays under it.
func TestLaw_path_resolves_inside_windows(t *testing.T) {
	part := rapid.OneOf(urlSegment(), rapid.SampledFrom([]string{"C:", "c:x", "CON", "nul.txt", ".. ", "?", `..\..`, `\\`}))
	rapid.Check(t, func(t *rapid.T) {
		segs := rapid.SliceOfN(part, 0, 12).Draw(t, "segs")
		var b strings.Builder
		for i, s := range segs {
			if i > 0 {
				b.WriteString(rapid.SampledFrom([]string{"/", `\`}).Draw(t, "sep"))
			}
			b.WriteString(s)
		}
		path := b.String()
		names, err := walkLocal(path, true)
		if _, escaped := walkModel(strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })); escaped {
			if !errors.Is(err, errClimbs) {
				t.Fatalf("walkLocal(%q, windows) = %q, %v; the model says it climbs", path, names, err)
			}
			return
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, `/\:`) || strings.Trim(n, ". ") == "" || windowsNameProblem(n) != "" {
				t.Fatalf("walkLocal(%q, windows) gave %q, which Windows does not open as itself", path, n)
			}
		}
	})
}

func TestWalkURLPathExamples(t *testing.T) {
	for _, c := range []struct {
		path string
		want string // "!" for escapes
	}{
		{"", ""},
		{"/", ""},
		{"a/b", "a/b"},
		{"a//./b/", "a/b"},
		{"a/../b", "b"},
		{"..", "!"},
		{"../x", "!"},
		{"a/../../a/x", "!"},
		{"/..", "!"},    // not the filesystem's "/.." = "/"
		{"~/../x", "x"}, // "~" is a name to the walk; only ssh:// gives it a meaning
		{"...", "..."},
		{`a/\..`, `a/\..`},
	} {
		got, ok := WalkPath(c.path)
		s := strings.Join(got, "/")
		if !ok {
			s = "!"
		}
		if s != c.want {
			t.Errorf("WalkPath(%q) = %q, want %q", c.path, s, c.want)
		}
	}
}
