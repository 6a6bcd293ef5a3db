package gate

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// walkOnly is an FS that never answers Plain: Resolve walks every path
// part by part, as it did before Plain.
type walkOnly struct{ FS }

func (walkOnly) Plain(string) bool { return false }

// TestLaw_a_plain_path_resolves_as_the_walk_does holds the one-call answer
// (Plain: openat2 with no symlink on the way) to the part-by-part walk on
// the real filesystem: random trees of directories, files and links (to
// directories, files, parents, nowhere, themselves), random paths through
// them with ".", ".." and doubled slashes. The real path is the same
// either way, so the fast path only ever saves syscalls.
func TestLaw_a_plain_path_resolves_as_the_walk_does(t *testing.T) {
	needSymlinks(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n, plain, linked := 0, 0, 0
	names := []string{"a", "b", "c", "d"}
	rapid.Check(t, func(rt *rapid.T) {
		n++
		root := filepath.Join(base, "w"+strconv.Itoa(n))
		dirs := []string{root}
		if err := os.MkdirAll(root, 0o755); err != nil {
			rt.Fatal(err)
		}
		for range rapid.IntRange(1, 16).Draw(rt, "entries") {
			p := filepath.Join(rapid.SampledFrom(dirs).Draw(rt, "parent"), rapid.SampledFrom(names).Draw(rt, "name"))
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				if os.Mkdir(p, 0o755) == nil {
					dirs = append(dirs, p)
				}
			case 1:
				_ = os.WriteFile(p, nil, 0o644)
			case 2:
				target := rapid.SampledFrom([]string{"..", ".", "a", "../b", "c/d", "/nowhere", root, p}).Draw(rt, "target")
				_ = os.Symlink(target, p)
			}
		}
		parts := rapid.SliceOfN(rapid.SampledFrom(append([]string{".", "..", ""}, names...)), 0, 5).Draw(rt, "parts")
		path := root
		for _, p := range parts {
			path += "/" + p
		}
		got, want := Resolve(OS, "/", path), Resolve(walkOnly{OS}, "/", path)
		if !reflect.DeepEqual(got, want) {
			rt.Fatalf("%s: one call %+v, the walk %+v", path, got, want)
		}
		if isClean(path) && OS.Plain(path) {
			plain++
		} else if isClean(path) && want.Path != path {
			linked++
		}
	})
	// and one fixed tree, so that a clean path through a link is always
	// among them: a random draw met none once (a CI rehearsal)
	fixed := filepath.Join(base, "fixed")
	if err := os.MkdirAll(filepath.Join(fixed, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(fixed, "l")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(fixed, "l"), filepath.Join(fixed, "l", "x"), filepath.Join(fixed, "a")} {
		got, want := Resolve(OS, "/", path), Resolve(walkOnly{OS}, "/", path)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: one call %+v, the walk %+v", path, got, want)
		}
		if OS.Plain(path) {
			plain++
		} else if want.Path != path {
			linked++
		}
	}
	if plain == 0 || linked == 0 {
		t.Errorf("the trees met %d plain paths and %d through links: the law saw too little", plain, linked)
	}
}
