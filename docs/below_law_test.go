package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// Whatever tree of directories, files and links an attacker plants — links
// into a secret beside the root, to the root's parent, to themselves, in a
// loop — and whichever directory they swap for a link into the secret at
// whichever point of the walk, grep and glob over the root never show a
// byte or a name of the secret (issue 12 class 8, G1.5 during the walk).
func TestWalkShowsNothingBeyondItsRoot(t *testing.T) {
	if _, err := NewDisk().OpenTree(t.TempDir(), true); err != nil {
		t.Skipf("this kernel has no openat2: %v", err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		base, err := os.MkdirTemp("", "walklaw")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(base)
		root := filepath.Join(base, "root")
		secret := filepath.Join(base, "secretdir")
		mustWrite(rt, filepath.Join(secret, "zzsecretname"), "SECRETBYTES\n")
		mustWrite(rt, filepath.Join(root, "plain.txt"), "match here\n")
		dirs := []string{root}
		n := rapid.IntRange(1, 12).Draw(rt, "entries")
		for i := range n {
			parent := dirs[rapid.IntRange(0, len(dirs)-1).Draw(rt, "parent")]
			name := filepath.Join(parent, fmt.Sprintf("e%d", i))
			switch rapid.IntRange(0, 5).Draw(rt, "kind") {
			case 0:
				os.Mkdir(name, 0o755)
				dirs = append(dirs, name)
			case 1:
				os.WriteFile(name, []byte("match file\n"), 0o644)
			case 2:
				os.Symlink(secret, name)
			case 3:
				os.Symlink(filepath.Join(secret, "zzsecretname"), name)
			case 4:
				rel, _ := filepath.Rel(parent, base)
				os.Symlink(rel, name) // up to the secret's parent
			case 5:
				os.Symlink(name, name) // a loop
			}
		}
		victim := dirs[rapid.IntRange(0, len(dirs)-1).Draw(rt, "victim")]
		at := rapid.IntRange(0, 5).Draw(rt, "swapAt")
		var calls atomic.Int32
		swap := func() {
			if victim == root {
				return
			}
			os.Rename(victim, victim+".old")
			os.Symlink(secret, victim)
		}
		store := &countSwapStore{Disk: NewDisk(), hook: func() {
			if calls.Add(1) == int32(at+1) {
				swap()
			}
		}}
		tools := &Tools{Store: store, Session: NewSession(), Root: root}
		for _, r := range []Result{
			tools.Grep(context.Background(), GrepArgs{Pattern: "match|SECRET", NoIgnore: true}),
			tools.Glob(context.Background(), GlobArgs{Pattern: "**", NoIgnore: true}),
		} {
			if strings.Contains(r.Text, "SECRETBYTES") || strings.Contains(r.Text, "zzsecretname") {
				rt.Fatalf("the walk showed the secret:\n%s", r.Text)
			}
		}
	})
}

// countSwapStore runs hook after every listing of its tree.
type countSwapStore struct {
	*Disk
	hook func()
}

func (s *countSwapStore) OpenTree(dir string, real bool) (Tree, error) {
	t, err := s.Disk.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return &hookTree{Tree: t, hook: s.hook}, nil
}

type hookTree struct {
	Tree
	hook func()
}

func (t *hookTree) List(rel string) ([]Entry, error) {
	es, err := t.Tree.List(rel)
	t.hook()
	return es, err
}
