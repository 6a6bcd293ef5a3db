package gate

import (
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// TestMemoFSAnswersAsItsFS: over any drawn filesystem (links dangling and
// looping too), resolving paths through one memo, in any order, gives what
// resolving each through the filesystem gives.
func TestMemoFSAnswersAsItsFS(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		memo := newMemoFS(fsys)
		n := rapid.IntRange(1, 40).Draw(t, "n")
		for i := range n {
			p := genPath(t, fmt.Sprint("path", i))
			if got, want := Resolve(memo, lawRoot, p), Resolve(fsys, lawRoot, p); !reflect.DeepEqual(got, want) {
				t.Fatalf("Resolve(%q): memo %+v, fs %+v", p, got, want)
			}
		}
	})
}
