package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Every name in the roots of a file in a protected place outside them
// (the home's configuration) is found, whether the search walks the place
// or a look at the roots spares that walk: links between the roots, the
// place, and a plain directory outside both, drawn at random.
func TestLaw_a_protected_file_s_other_names_are_protected_outside_the_roots_too(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		dir := filepath.Join(base, fmt.Sprint(n))
		root, conf, other := filepath.Join(dir, "root"), filepath.Join(dir, "home", ".config"), filepath.Join(dir, "tmp")
		protectedFiles := []string{"home/.config/git/config", "home/.config/nvim/init.lua"}
		plain := []string{"root/a.txt", "root/sub/b.txt", "tmp/c.txt"}
		for _, f := range slices.Concat(protectedFiles, plain) {
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644))
		}
		names := []string{"root/cfg", "root/sub/init.lua", "root/sub/x", "tmp/y", "home/.config/z"}
		linkedTo := map[string]string{}
		for _, nm := range names {
			if !rapid.Bool().Draw(rt, "link "+nm) {
				continue
			}
			target := rapid.SampledFrom(slices.Concat(protectedFiles, plain)).Draw(rt, "target "+nm)
			must(t, os.Link(filepath.Join(dir, target), filepath.Join(dir, nm)))
			linkedTo[nm] = target
		}
		// the oracle: a name in the roots of a file one of whose names is
		// in the place
		var inPlace, inRoot []os.FileInfo
		var rootNames []string
		for _, f := range slices.Concat(protectedFiles, plain, names) {
			fi, err := os.Lstat(filepath.Join(dir, f))
			if err != nil {
				continue
			}
			switch {
			case strings.HasPrefix(f, "home/"):
				inPlace = append(inPlace, fi)
			case strings.HasPrefix(f, "root/"):
				inRoot, rootNames = append(inRoot, fi), append(rootNames, filepath.Join(dir, f))
			}
		}
		var want []string
		for i, fi := range inRoot {
			if slices.ContainsFunc(inPlace, func(p os.FileInfo) bool { return os.SameFile(p, fi) }) {
				want = append(want, rootNames[i])
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		// the gate's own question, a write to each name in the roots
		pol := Places{Roots: []string{root}, Home: filepath.Join(dir, "home")}.Policy(OS)
		for _, name := range rootNames {
			got := pol.ClassWrite(Resolve(OS, root, name)) == ClassProtected
			if want := slices.Contains(want, name); got != want {
				rt.Fatalf("a write to %s: protected %v, want %v (linked %v)", name, got, want, linkedTo)
			}
		}
		for _, cache := range []*LinkCache{nil, {}} {
			r := cache.SearchFrom(OS.(InodeFS), []string{conf, other + "/none"}, []int{-1, -1}, []string{root}, []string{root}, nil)
			got := slices.Clone(r.Links)
			slices.Sort(got)
			got = slices.Compact(got)
			if !slices.Equal(got, want) {
				rt.Fatalf("cache %v: links %v, want %v (linked %v)", cache != nil, got, want, linkedTo)
			}
		}
	})
}

// A workspace none of whose files has a name outside it spares the walk
// of the home's configuration (which on a developer's machine is most of
// a second or more); one such file, and the walk is made; a workspace
// past the look's bound is walked as before.
func TestAWorkspaceWithoutStrangersSparesTheWalkOfTheHome(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, conf := filepath.Join(base, "root"), filepath.Join(base, "home", ".config")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(conf, "tool")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(conf, "tool", "rc"), []byte("x"), 0o644))
	fillPlace(t, filepath.Join(conf, "many"), keepWalkFloor) // its walk is kept
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	// a hard link inside the workspace is no stranger
	must(t, os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "sub", "a2.txt")))
	fsys := &countingFS{InodeFS: OS.(InodeFS), under: conf}
	var c LinkCache
	c.SearchFrom(fsys, []string{conf}, []int{-1}, []string{root}, []string{root}, nil)
	if n := fsys.listed; n != 0 {
		t.Fatalf("the home's configuration was listed %d times for a workspace without strangers", n)
	}
	// searched from the home too (a step that may write outside): walked
	c.SearchFrom(fsys, []string{conf}, []int{-1}, []string{root, filepath.Join(base, "home")}, []string{root}, nil)
	if fsys.listed == 0 {
		t.Fatal("a search of scopes past the roots did not walk the home's configuration")
	}
	fsys.listed = 0
	// the user links a file of the kept walk into the workspace: the
	// stranger changed after the walk began, so the place is walked again
	// (a sandbox makes each process's searches after Fresh)
	must(t, os.Link(filepath.Join(conf, "tool", "rc"), filepath.Join(root, "rc")))
	c.Fresh()
	r := c.SearchFrom(fsys, []string{conf}, []int{-1}, []string{root}, []string{root}, nil)
	if fsys.listed == 0 || !slices.Equal(r.Links, []string{filepath.Join(root, "rc")}) {
		t.Fatalf("a stranger: listed %d, links %v", fsys.listed, r.Links)
	}
	must(t, os.Remove(filepath.Join(root, "rc")))
	fsys.listed = 0
	if look := strangersIn(fsys, []string{root}, 3); look.complete {
		t.Fatalf("a look past its bound says it is complete: %+v", look)
	}
}

// A write to a workspace file whose other names are all in the workspace
// does not walk the home's configuration; one with a name outside does.
func TestAWriteToAFileNamedOnlyInTheWorkspaceSparesTheWalkOfTheHome(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "work")
	must(t, os.MkdirAll(filepath.Join(home, ".config", "tool"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	must(t, os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "sub", "a2.txt")))
	must(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("b"), 0o644))
	must(t, os.Link(filepath.Join(root, "b.txt"), filepath.Join(base, "b-elsewhere.txt")))
	fsys := &countingFS{InodeFS: OS.(InodeFS), under: filepath.Join(home, ".config")}
	p := Places{Roots: []string{root}, Home: home}.Policy(fsys)
	fsys.listed = 0 // the policy's making looked for linked configuration
	if c := p.ClassWrite(Resolve(fsys, root, filepath.Join(root, "a.txt"))); c != ClassInside || fsys.listed != 0 {
		t.Fatalf("a file named twice in the workspace: %v, the home listed %d times", c, fsys.listed)
	}
	if c := p.ClassWrite(Resolve(fsys, root, filepath.Join(root, "b.txt"))); c != ClassInside || fsys.listed == 0 {
		t.Fatalf("a file with a name outside: %v, the home listed %d times (want walked)", c, fsys.listed)
	}
}

// The protected files' search and the secret files' take turns at each
// step of a session: each is kept, so neither walks the roots again.
func TestLinkCacheKeepsEachSearchOfATurn(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(base, "root")
	prot, sec := filepath.Join(root, ".git"), filepath.Join(base, "home", ".ssh")
	for _, d := range []string{prot, sec, filepath.Join(root, "sub")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(prot, "config"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(sec, "id"), nil, 0o600))
	must(t, os.Link(filepath.Join(prot, "config"), filepath.Join(root, "sub", "cfg")))
	must(t, os.Link(filepath.Join(sec, "id"), filepath.Join(root, "sub", "id")))
	// each file has a third name nowhere searched, so both searches walk
	// the roots
	must(t, os.Link(filepath.Join(prot, "config"), filepath.Join(base, "cfg3")))
	must(t, os.Link(filepath.Join(sec, "id"), filepath.Join(base, "id3")))
	fsys := &countingFS{InodeFS: OS.(InodeFS), under: root}
	var c LinkCache
	first := 0
	for turn := range 3 {
		before := fsys.listed
		a := c.SearchFrom(fsys, []string{prot}, []int{-1}, []string{root}, []string{root}, nil)
		b := c.SearchFrom(fsys, []string{sec}, []int{-1}, []string{root}, []string{root}, nil)
		if !slices.Equal(a.Links, []string{filepath.Join(root, "sub", "cfg")}) || !slices.Equal(b.Links, []string{filepath.Join(root, "sub", "id")}) {
			t.Fatalf("turn %d: links %v and %v", turn, a.Links, b.Links)
		}
		walked := fsys.listed - before
		if turn == 0 {
			first = walked
		}
		// each search walks the roots (two directories) when it is not kept
		if turn > 0 && walked > first-4 {
			t.Fatalf("turn %d listed the roots' directories %d times (the first %d): a kept search was walked again", turn, walked, first)
		}
	}
}
