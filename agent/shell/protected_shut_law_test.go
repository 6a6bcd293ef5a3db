//go:build linux

package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The law of a folder shut to the user, in the protected tree: every
// directory of the user's below a root that the user cannot list or
// search (gate.DirShut), and that the user reaches (every directory above
// it open), is among the tree's shut directories — mapped or past the
// map's bound (walkBeyond) — and no other is; one shut since the last
// look is made. The oracle is the user trying to list and search each
// directory. Random trees, random bounds, random modes; run as a user
// without root's permission override.
func TestLaw_a_shut_folder_is_known_to_the_protected_tree(t *testing.T) {
	if !testkit.RunWithoutDAC(t, "TestLaw_a_shut_folder_is_known_to_the_protected_tree") {
		return
	}
	old := maxTreeDirs
	t.Cleanup(func() { maxTreeDirs = old })
	base := t.TempDir()
	t.Cleanup(func() { lawOpenAll(base) })
	modes := []os.FileMode{0o755, 0o700, 0o500, 0o300, 0o100, 0o400, 0o600, 0o000}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		root := filepath.Join(base, fmt.Sprint(n))
		dirs := []string{root}
		if err := os.Mkdir(root, 0o755); err != nil {
			rt.Fatal(err)
		}
		for i := range rapid.IntRange(1, 12).Draw(rt, "dirs") {
			d := filepath.Join(dirs[rapid.IntRange(0, len(dirs)-1).Draw(rt, "parent")], fmt.Sprintf("d%d", i))
			if err := os.Mkdir(d, 0o755); err != nil {
				rt.Fatal(err)
			}
			dirs = append(dirs, d)
		}
		defer lawOpenAll(root)
		maxTreeDirs = rapid.IntRange(1, 14).Draw(rt, "bound")
		time.Sleep(20 * time.Millisecond) // none racy: the bound holds
		roots, names := []string{root}, []string{".git"}
		tr := &protectedTree{}
		tr.refresh(roots, names)
		chmod := func(label string) {
			for i := len(dirs) - 1; i >= 1; i-- {
				if rapid.Bool().Draw(rt, label+"?") {
					// (one below a directory shut before cannot be reached)
					os.Chmod(dirs[i], rapid.SampledFrom(modes).Draw(rt, label))
				}
			}
		}
		chmod("mode")
		top, all := lawShut(dirs)
		tr.refresh(roots, names)
		got := tr.shutDirs()
		lawCovers(rt, got, top, all, "")
		time.Sleep(20 * time.Millisecond) // a chmod moves the change time
		chmod("again")
		top2, all2 := lawShut(dirs)
		made, _ := tr.refresh(roots, names)
		lawCovers(rt, tr.shutDirs(), top2, all2, " after a change")
		for _, d := range top2 {
			if !slices.Contains(got, d) && !slices.Contains(made, d) {
				rt.Fatalf("%s, shut since the last look, is not made: %q", d, made)
			}
		}
	})
}

// lawCovers fails rt unless the tree's shut directories got hold every
// topmost one (each directory above it open to the user) and only
// directories shut to the user (a shut one the user still reaches by
// name below a search-only directory may be among them).
func lawCovers(rt *rapid.T, got, top, all []string, when string) {
	for _, d := range top {
		if !slices.Contains(got, d) {
			rt.Fatalf("%s, shut to the user, is not among the tree's shut directories%s: %q", d, when, got)
		}
	}
	for _, d := range got {
		if !slices.Contains(all, d) {
			rt.Fatalf("%s is among the tree's shut directories%s, and the user lists and searches it", d, when)
		}
	}
}

// lawShut are the directories of dirs (dirs[0] the root, each after its
// parent) the user cannot list or search, as the user finds by trying:
// top, those below open directories only; all, every one it can look
// at (lstat). Sorted.
func lawShut(dirs []string) (top, all []string) {
	open := map[string]bool{}
	for i, d := range dirs {
		var st unix.Stat_t
		if unix.Lstat(d, &st) != nil {
			continue // below a directory the user cannot search
		}
		f, err := os.Open(d)
		if err == nil {
			_, err = f.Readdirnames(-1)
			f.Close()
		}
		if err == nil && unix.Lstat(d+"/.", &st) == nil {
			open[d] = true
			continue
		}
		all = append(all, d)
		if i == 0 || open[filepath.Dir(d)] && !slices.ContainsFunc(dirs[1:i], func(a string) bool { return strings.HasPrefix(d, a+"/") && !open[a] }) {
			top = append(top, d)
		}
	}
	slices.Sort(top)
	slices.Sort(all)
	return top, all
}

// lawOpenAll opens every directory at or below dir again (755), each
// before it is listed.
func lawOpenAll(dir string) {
	os.Chmod(dir, 0o755)
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if de.IsDir() && !strings.HasPrefix(de.Name(), ".") {
			lawOpenAll(filepath.Join(dir, de.Name()))
		}
	}
}
