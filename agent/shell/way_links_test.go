package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Every link on the way from a path as written to its real entry is
// found: a link to a link, relative and absolute, and one in a link's
// target.
func TestLinksOnTheWay_finds_every_link_on_the_way(t *testing.T) {
	needLinks(t)
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(d, "store", "env", "bin"), 0o755))
	must(os.MkdirAll(filepath.Join(d, "state", "profiles"), 0o755))
	must(os.Symlink(filepath.Join(d, "store", "env"), filepath.Join(d, "state", "profiles", "p-1")))
	must(os.Symlink("p-1", filepath.Join(d, "state", "profiles", "profile")))
	must(os.Symlink(filepath.Join(d, "state", "profiles", "profile"), filepath.Join(d, "state", "profile")))
	must(os.Symlink("state", filepath.Join(d, "st")))
	got := linksOnTheWay(filepath.Join(d, "st", "profile", "bin"))
	want := []string{filepath.Join(d, "st"), filepath.Join(d, "state", "profile"),
		filepath.Join(d, "state", "profiles", "profile"), filepath.Join(d, "state", "profiles", "p-1")}
	if !slices.Equal(got, want) {
		t.Errorf("linksOnTheWay = %v, want %v", got, want)
	}
	if got := linksOnTheWay(filepath.Join(d, "store", "env", "bin")); len(got) != 0 {
		t.Errorf("a path with no link: %v", got)
	}
	must(os.Symlink("loop", filepath.Join(d, "loop")))
	if got := linksOnTheWay(filepath.Join(d, "loop", "bin")); !slices.Equal(got, []string{filepath.Join(d, "loop")}) {
		t.Errorf("a loop: %v", got)
	}
}

// The law: linksOnTheWay names every link a path's resolution depends
// on. Over random trees of directories and links (relative and absolute,
// chained, in links' targets, dangling, looping), retargeting any link
// it does not name leaves where the path leads unchanged, and each one it
// names is a link in a real directory (renameable with no link on the
// way).
func TestLaw_every_link_on_the_way_is_named(t *testing.T) {
	needLinks(t)
	rapid.Check(t, func(rt *rapid.T) {
		base, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			rt.Fatal(err)
		}
		dirs := []string{"a", "b", "a/x", "b/y", "a/x/bin", "b/bin"}
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
				rt.Fatal(err)
			}
		}
		targets := append(slices.Clone(dirs), "l0", "a/l1", "b/y/l2", "missing")
		links := []string{"l0", "a/l1", "b/y/l2"}
		for i, l := range links {
			to := rapid.SampledFrom(targets).Draw(rt, fmt.Sprintf("to%d", i))
			if rapid.Bool().Draw(rt, fmt.Sprintf("abs%d", i)) {
				to = filepath.Join(base, to)
			} else if r, err := filepath.Rel(filepath.Dir(filepath.Join(base, l)), filepath.Join(base, to)); err == nil {
				to = r
			}
			if err := os.Symlink(to, filepath.Join(base, l)); err != nil {
				rt.Fatal(err)
			}
		}
		start := rapid.SampledFrom(append(slices.Clone(links), dirs...)).Draw(rt, "start")
		p := filepath.Join(base, start, rapid.SampledFrom([]string{"", "bin", "x/bin", "y"}).Draw(rt, "rest"))
		way := linksOnTheWay(p)
		for _, l := range way {
			if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				rt.Fatalf("%s named: no link", l)
			}
			if d, err := filepath.EvalSymlinks(filepath.Dir(l)); err != nil || d != filepath.Dir(l) {
				rt.Fatalf("%s named: a link on the way to its directory", l)
			}
		}
		was, werr := filepath.EvalSymlinks(p)
		for _, l := range links {
			l = filepath.Join(base, l)
			if slices.Contains(way, l) {
				continue
			}
			if err := os.Remove(l); err != nil {
				rt.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(base, "b", "y"), l); err != nil {
				rt.Fatal(err)
			}
		}
		now, nerr := filepath.EvalSymlinks(p)
		if (werr == nil) != (nerr == nil) || now != was {
			rt.Fatalf("%s led to %q (%v); with links it did not name retargeted, to %q (%v); named %v", p, was, werr, now, nerr, way)
		}
	})
}

// BenchmarkLinksOnTheWay is what looking for the links on the way adds
// before every process allowed write: an lstat of each part of each
// protected place (here the PATH's directories).
func BenchmarkLinksOnTheWay(b *testing.B) {
	dirs := filepath.SplitList(os.Getenv("PATH"))
	for b.Loop() {
		for _, d := range dirs {
			linksOnTheWay(d)
		}
	}
}
