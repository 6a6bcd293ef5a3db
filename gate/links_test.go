package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A write to a file is Protected exactly when the file is, or is
// another name (a hard link) of, a file below a protected entry; and
// ProtectedLinks finds every such other name below the roots.
func TestLaw_a_protected_file_s_other_names_are_protected(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		root := filepath.Join(base, fmt.Sprint(n), "root")
		protectedFiles := []string{".git/config", ".git/hooks/pre-commit", ".vscode/tasks.json", "sub/.git/config"}
		plain := []string{"a.txt", "sub/b.txt", "sub/deep/c.txt"}
		for _, f := range slices.Concat(protectedFiles, plain) {
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755))
			must(t, os.WriteFile(filepath.Join(root, f), []byte(f), 0o644))
		}
		// Other names: of protected files (want protected) and of plain
		// files (want not).
		names := []string{"cfg", "sub/notes.txt", "sub/deep/x", "y", "sub/z"}
		linkedTo := map[string]string{}
		for _, nm := range names {
			if !rapid.Bool().Draw(rt, "link "+nm) {
				continue
			}
			target := rapid.SampledFrom(slices.Concat(protectedFiles, plain)).Draw(rt, "target "+nm)
			must(t, os.Link(filepath.Join(root, target), filepath.Join(root, nm)))
			linkedTo[nm] = target
		}
		p := NewPolicy(OS, []string{root}, nil, []Rule{{Kind: TreeRule, Path: filepath.Join(root, ".git")},
			{Kind: NamedRule, Name: ".git"}, {Kind: NamedRule, Name: ".vscode"}})
		isProtected := func(f string) bool { return slices.Contains(protectedFiles, f) }
		// A plain file's inode is its own; a name shares its target's.
		sameAsProtected := func(f string) bool { return isProtected(linkedTo[f]) }
		for _, f := range slices.Concat(plain, names) {
			path := filepath.Join(root, f)
			if _, err := os.Lstat(path); err != nil {
				continue
			}
			got := p.ClassWrite(Resolve(OS, root, path)) == ClassProtected
			if want := sameAsProtected(f); got != want {
				rt.Fatalf("write %s (a name of %q): protected %v, want %v", f, linkedTo[f], got, want)
			}
		}
		tops := []string{filepath.Join(root, ".git"), filepath.Join(root, ".vscode"), filepath.Join(root, "sub", ".git")}
		links, complete := ProtectedLinks(OS.(InodeFS), tops, []int{-1, -1, -1}, []string{root}, nil)
		if !complete {
			rt.Fatalf("the search of a small tree did not complete")
		}
		var want []string
		for nm, target := range linkedTo {
			if isProtected(target) {
				want = append(want, filepath.Join(root, nm))
			}
		}
		slices.Sort(want)
		slices.Sort(links)
		if !slices.Equal(links, want) {
			rt.Fatalf("ProtectedLinks: %v, want %v", links, want)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The cache of the search is used again only while it still holds: a
// name renamed, a link added or removed is searched again.
func TestLinkCacheSearchesAgainWhenANameMoves(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
	must(t, os.Link(filepath.Join(root, ".git", "config"), filepath.Join(root, "cfg")))
	var c LinkCache
	search := func() []string {
		links, complete := c.ProtectedLinks(OS.(InodeFS), []string{filepath.Join(root, ".git")}, []int{-1}, []string{root}, nil)
		if !complete {
			t.Fatal("incomplete")
		}
		slices.Sort(links)
		return links
	}
	check := func(want ...string) {
		t.Helper()
		for i := range want {
			want[i] = filepath.Join(root, want[i])
		}
		if got := search(); !slices.Equal(got, want) {
			t.Fatalf("links %v, want %v", got, want)
		}
	}
	check("cfg")
	check("cfg")
	must(t, os.Rename(filepath.Join(root, "cfg"), filepath.Join(root, "sub", "moved")))
	check("sub/moved")
	must(t, os.Link(filepath.Join(root, ".git", "config"), filepath.Join(root, "again")))
	check("again", "sub/moved")
	must(t, os.Remove(filepath.Join(root, "sub", "moved")))
	check("again")
	// a plain file put where a found name was: searched again
	must(t, os.Rename(filepath.Join(root, "again"), filepath.Join(root, "sub", "x")))
	must(t, os.WriteFile(filepath.Join(root, "again"), []byte("plain"), 0o644))
	check("sub/x")
}

// A dotfile with a second name (a dotfiles directory that hard-links
// ~/dotfiles/bash_aliases to ~/.bash_aliases, no list names it): a write to the second name
// writes the home's configuration, so it is Protected, at any depth of a
// dot-directory too; a name shared with a cache of HomeWritable is not.
func TestDotfileHardLinkedFromElsewhereIsProtected(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "home", "work")
	for _, d := range []string{root, filepath.Join(home, "dotfiles"), filepath.Join(home, ".config", "mise"), filepath.Join(home, ".cache", "go-build")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	link := func(protected, other string) {
		must(t, os.WriteFile(filepath.Join(home, protected), []byte("x\n"), 0o644))
		must(t, os.Link(filepath.Join(home, protected), filepath.Join(home, other)))
	}
	link(".bash_aliases", "dotfiles/bash_aliases")
	link(".config/mise/config.toml", "dotfiles/mise.toml")
	link(".cache/go-build/blob", "dotfiles/blob")
	// deeper than two levels (the eighth red team's)
	must(t, os.MkdirAll(filepath.Join(home, ".oh-my-zsh", "custom", "themes", "deep"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".local", "share", "nvim", "site", "plugin"), 0o755))
	link(".oh-my-zsh/custom/themes/deep/t.zsh-theme", "dotfiles/theme")
	link(".local/share/nvim/site/plugin/p.lua", "dotfiles/p.lua")
	// beside a cache of HomeWritable three levels down (pnpm's store): its
	// global packages, linked from the store (the ninth red team's, CI)
	must(t, os.MkdirAll(filepath.Join(home, ".local", "share", "pnpm", "global", "5", "cowsay"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".local", "share", "pnpm", "store", "v3"), 0o755))
	link(".local/share/pnpm/global/5/cowsay/cli.js", ".local/share/pnpm/store/v3/c0ffee-exec")
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for other, want := range map[string]Class{"dotfiles/bash_aliases": ClassProtected, "dotfiles/mise.toml": ClassProtected, "dotfiles/blob": ClassOutside,
		"dotfiles/theme": ClassProtected, "dotfiles/p.lua": ClassProtected, ".local/share/pnpm/store/v3/c0ffee-exec": ClassProtected} {
		path := filepath.Join(home, other)
		if got := p.ClassWrite(Resolve(OS, root, path)); got != want {
			t.Errorf("write %s: %v, want %v", other, got, want)
		}
	}
}

// Places searched may nest (~/.config and ~/.config/nvim, .git and
// .git/HEAD): a file met in both is one name, so its other name is
// still searched for (counted twice, it looked found).
func TestLinkSearchCountsANameInNestedPlacesOnce(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	must(t, os.Link(filepath.Join(root, ".git", "HEAD"), filepath.Join(root, "head")))
	git := filepath.Join(root, ".git")
	links, complete := ProtectedLinks(OS.(InodeFS), []string{git, filepath.Join(git, "HEAD")}, []int{-1, -1}, []string{root}, nil)
	if !complete || !slices.Equal(links, []string{filepath.Join(root, "head")}) {
		t.Fatalf("links %v (complete %v), want the workspace's name", links, complete)
	}
}

// A protected place outside the roots is walked once a while
// (topsFresh), and again as soon as a file it found gets or loses a
// name, so the new name is searched for.
func TestLinkCacheWalksAnOutsidePlaceAgainWhenAFileItFoundGetsAName(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, conf := filepath.Join(base, "root"), filepath.Join(base, "home", ".config", "app", "deep", "er")
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.MkdirAll(conf, 0o755))
	f := filepath.Join(conf, "init.lua")
	must(t, os.WriteFile(f, []byte("x"), 0o644))
	must(t, os.Link(f, filepath.Join(root, "one")))
	fillPlace(t, filepath.Join(base, "home", ".config", "many"), keepWalkFloor)
	var c LinkCache
	search := func() LinkSearch {
		return c.Search(OS.(InodeFS), []string{filepath.Join(base, "home", ".config")}, []int{-1}, []string{root}, nil)
	}
	if r := search(); !slices.Equal(r.Links, []string{filepath.Join(root, "one")}) {
		t.Fatalf("first search: %v", r.Links)
	}
	must(t, os.Link(f, filepath.Join(root, "two")))
	if r := search(); !slices.Equal(r.Links, []string{filepath.Join(root, "one"), filepath.Join(root, "two")}) {
		t.Fatalf("after a second link: %v, want both names", r.Links)
	}
	c.topsMu.Lock()
	walked := len(c.tops)
	c.topsMu.Unlock()
	if walked != 1 {
		t.Fatalf("the outside place is not kept: %d walks kept", walked)
	}
}

// fillPlace makes n empty files in dir: a place large enough that its
// walk is kept (keepWalkFloor).
func fillPlace(t *testing.T, dir string, n int) {
	t.Helper()
	must(t, os.MkdirAll(dir, 0o755))
	for i := range n {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", i)), nil, 0o644))
	}
}

// countingFS counts the directories listed below a place.
type countingFS struct {
	InodeFS
	mu     sync.Mutex
	under  string
	listed int
}

func (c *countingFS) Names(dir string) ([]string, error) {
	if under(dir, c.under) {
		c.mu.Lock()
		c.listed++
		c.mu.Unlock()
	}
	return c.InodeFS.Names(dir)
}

// A write to a file with other names searches the home's configuration
// whole; the policy keeps that walk (topsFresh), as the sandbox keeps
// its own: the second write does not list the home again (on a machine
// whose homes held toolchains, each such write took 12 s), and a file
// the walk found that gets or loses a name is walked again.
func TestLinksProtectedKeepsTheWalkOfTheHome(t *testing.T) {
	needHardLinkSearch(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "work")
	for _, d := range []string{root, filepath.Join(home, ".config", "tool", "a", "b")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(home, ".config", "tool", "a", "b", "c.conf"), []byte("x\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "shared.txt"), []byte("x\n"), 0o644))
	must(t, os.Link(filepath.Join(root, "shared.txt"), filepath.Join(base, "elsewhere.txt")))
	conf := filepath.Join(home, ".config", "tool", "a", "b", "c.conf")
	must(t, os.Link(conf, filepath.Join(base, "conf-copy"))) // a file the walk finds
	fillPlace(t, filepath.Join(home, ".config", "many"), keepWalkFloor)
	// a file changed less than changedSlack before a kept walk began
	// (shared.txt, just linked) has the home walked again: let that pass
	time.Sleep(changedSlack + 100*time.Millisecond)
	fsys := &countingFS{InodeFS: OS.(InodeFS), under: filepath.Join(home, ".config")}
	p := Places{Roots: []string{root}, Home: home}.Policy(fsys)
	write := func() Class { return p.ClassWrite(Resolve(fsys, root, filepath.Join(root, "shared.txt"))) }
	if c := write(); c != ClassInside {
		t.Fatalf("a workspace file whose other name is in no protected place: %v", c)
	}
	first := fsys.listed
	if c := write(); c != ClassInside || fsys.listed != first {
		t.Fatalf("the second write listed %d directories of the home again (%v)", fsys.listed-first, c)
	}
	// the user gives a file the walk found a third name, in the
	// workspace: the kept walk is not used
	must(t, os.Remove(filepath.Join(root, "shared.txt")))
	must(t, os.Link(conf, filepath.Join(root, "shared.txt")))
	if c := write(); c != ClassProtected {
		t.Fatalf("the workspace name of the home's c.conf: %v, want protected", c)
	}
}
