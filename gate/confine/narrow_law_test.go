package confine

import (
	"errors"
	"path"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// An approval uncovers only what it named: after Narrow, no named path is
// covered unless a directory on its way could not be listed (then it
// stays covered: the approved step fails, never reaches more), and every
// path the entries covered that neither is at or below a named path nor
// holds one is still covered.
func TestLaw_an_approval_uncovers_only_what_it_named(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		// a tree of up to three levels under /h
		names := []string{"a", "b", "c", ".ssh", "id", "hooks"}
		var all []Entry
		dirs := map[string][]Entry{}
		var grow func(dir string, depth int)
		grow = func(dir string, depth int) {
			n := rapid.IntRange(0, 3).Draw(rt, "kids")
			for i := 0; i < n; i++ {
				name := rapid.SampledFrom(names).Draw(rt, "name")
				p := path.Join(dir, name)
				if slices.ContainsFunc(dirs[dir], func(e Entry) bool { return e.Path == p }) {
					continue
				}
				isDir := depth < 3 && rapid.Bool().Draw(rt, "dir")
				e := Entry{Path: p, Dir: isDir}
				dirs[dir] = append(dirs[dir], e)
				all = append(all, e)
				if isDir {
					dirs[p] = nil
					grow(p, depth+1)
				}
			}
		}
		dirs["/h"] = nil
		grow("/h", 1)
		if len(all) == 0 {
			return
		}
		unlistable := map[string]bool{}
		for _, e := range all {
			if e.Dir && rapid.IntRange(0, 9).Draw(rt, "unlistable") == 0 {
				unlistable[e.Path] = true
			}
		}
		readDir := func(d string) ([]Entry, error) {
			if unlistable[d] {
				return nil, errors.New("no")
			}
			return dirs[d], nil
		}
		entries := rapid.SliceOfNDistinct(rapid.SampledFrom(all), 0, 4, func(e Entry) string { return e.Path }).Draw(rt, "entries")
		named := rapid.SliceOfN(rapid.SampledFrom(all), 0, 3).Draw(rt, "named")
		var namedPaths []string
		for _, n := range named {
			namedPaths = append(namedPaths, n.Path)
		}
		out := Narrow(entries, namedPaths, readDir)
		for _, n := range namedPaths {
			if !Covered(out, n) {
				continue
			}
			blocked := false
			for _, e := range out {
				if under(n, e.Path) && (unlistable[e.Path] || !e.Dir) {
					blocked = true
				}
			}
			if !blocked {
				rt.Fatalf("named %s is still covered by %v (entries %v)", n, out, entries)
			}
		}
		for _, e := range all {
			p := e.Path
			if !Covered(entries, p) {
				if Covered(out, p) {
					rt.Fatalf("%s was not covered and now is", p)
				}
				continue
			}
			near := slices.ContainsFunc(namedPaths, func(n string) bool { return under(p, n) || under(n, p) })
			if !near && !Covered(out, p) {
				rt.Fatalf("%s, covered and not named, was uncovered: entries %v named %v out %v", p, entries, namedPaths, out)
			}
		}
	})
}

// A narrowed place is shown from a copy down to each named path: GivenWay
// holds every directory from an entry that holds an uncovered named path
// down to that path's directory, only those, each after the directories
// above it.
func TestLaw_a_narrowed_place_is_given_way_down_to_each_named_path(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seg := rapid.SampledFrom([]string{"a", "b", ".ssh", "keys", "id"})
		pathOf := func(label string) string {
			parts := rapid.SliceOfN(seg, 1, 4).Draw(rt, label)
			return "/h/" + path.Join(parts...)
		}
		entries := []Entry{}
		for i := rapid.IntRange(0, 3).Draw(rt, "entries"); i > 0; i-- {
			entries = append(entries, Entry{Path: pathOf("entry"), Dir: rapid.Bool().Draw(rt, "dir")})
		}
		var named []string
		for i := rapid.IntRange(0, 3).Draw(rt, "named"); i > 0; i-- {
			named = append(named, pathOf("named"))
		}
		narrowed := rapid.SliceOfN(rapid.SampledFrom(append(entries, Entry{Path: "/x"})), 0, 2).Draw(rt, "narrowed")
		got := GivenWay(entries, narrowed, named)
		want := map[string]bool{}
		for _, n := range named {
			if Covered(narrowed, n) {
				continue
			}
			for _, e := range entries {
				if e.Dir && n != e.Path && under(n, e.Path) {
					for d := path.Dir(n); ; d = path.Dir(d) {
						want[d] = true
						if d == e.Path {
							break
						}
					}
				}
			}
		}
		if len(got) != len(want) {
			rt.Fatalf("given way %v, want %v (entries %v, named %v, narrowed %v)", got, want, entries, named, narrowed)
		}
		for i, d := range got {
			if !want[d] {
				rt.Fatalf("%s given way: no uncovered named path below it (entries %v, named %v)", d, entries, named)
			}
			if i > 0 && depth(got[i-1]) > depth(d) {
				rt.Fatalf("%v not by depth", got)
			}
		}
	})
}
