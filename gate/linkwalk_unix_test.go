//go:build unix

package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// plainInodeFS hides the OS's own walk: linkWalk takes its generic path.
type plainInodeFS struct{ InodeFS }

// The OS's walk relative to directory descriptors visits the same files
// in the same order, stops at the same place, and takes the same from
// the budget as the generic walk by paths, for any tree, depth, budget
// and skip.
func TestTheWalkAtDescriptorsIsTheWalkByPaths(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		top := filepath.Join(base, fmt.Sprint(n))
		dirs := []string{""}
		var files []string
		for i := range rapid.IntRange(1, 30).Draw(rt, "entries") {
			parent := rapid.SampledFrom(dirs).Draw(rt, "parent")
			name := filepath.Join(parent, fmt.Sprintf("e%02d", i))
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 0:
				must(t, os.MkdirAll(filepath.Join(top, name), 0o755))
				dirs = append(dirs, name)
			case 1:
				must(t, os.MkdirAll(filepath.Join(top, parent), 0o755))
				must(t, os.WriteFile(filepath.Join(top, name), nil, 0o644))
				files = append(files, name)
			case 2:
				if len(files) == 0 {
					continue
				}
				must(t, os.MkdirAll(filepath.Join(top, parent), 0o755))
				must(t, os.Link(filepath.Join(top, rapid.SampledFrom(files).Draw(rt, "target")), filepath.Join(top, name)))
			case 3:
				must(t, os.MkdirAll(filepath.Join(top, parent), 0o755))
				must(t, os.Symlink(filepath.Join(top, rapid.SampledFrom(dirs).Draw(rt, "to")), filepath.Join(top, name)))
			}
		}
		must(t, os.MkdirAll(top, 0o755))
		depth := rapid.IntRange(-1, 3).Draw(rt, "depth")
		bound := rapid.IntRange(0, 40).Draw(rt, "budget")
		skipped := filepath.Join(top, rapid.SampledFrom(dirs).Draw(rt, "skip"))
		skip := func(p string) bool { return p != top && under(p, skipped) }
		stopAfter := rapid.IntRange(1, 5).Draw(rt, "stop after")
		walk := func(fsys InodeFS) (seen []string, ok bool, blind string, left int) {
			budget := bound
			ok, blind = linkWalk(fsys, top, depth, nil, skip, &budget, func(p string, in Inode) bool {
				seen = append(seen, fmt.Sprintf("%s %d", p, in.Nlink))
				return len(seen) < stopAfter
			})
			return seen, ok, blind, budget
		}
		fastSeen, fastOK, fastBlind, fastLeft := walk(OS.(InodeFS))
		seen, ok, blind, left := walk(plainInodeFS{OS.(InodeFS)})
		if !slices.Equal(fastSeen, seen) || fastOK != ok || fastBlind != blind || fastLeft != left {
			rt.Fatalf("at descriptors: %v ok %v blind %q left %d\nby paths: %v ok %v blind %q left %d", fastSeen, fastOK, fastBlind, fastLeft, seen, ok, blind, left)
		}
	})
}
