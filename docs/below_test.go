package docs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// swapStore is the disk whose tree swaps a directory for a link into a
// secret right after the walk lists the root: the attacker's race between
// the listing and the reads (issue 12 class 8).
type swapStore struct {
	*Disk
	swap func()
}

func (s *swapStore) OpenTree(dir string, real bool) (Tree, error) {
	t, err := s.Disk.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return &swapTree{Tree: t, swap: s.swap}, nil
}

type swapTree struct {
	Tree
	swap func()
}

func (t *swapTree) List(rel string) ([]Entry, error) {
	es, err := t.Tree.List(rel)
	if rel == "" && t.swap != nil {
		t.swap()
		t.swap = nil
	}
	return es, err
}

// swapWorld is a secret directory beside a root whose sub directory and
// file the swap turns into links to the secret.
func swapWorld(t *testing.T) (root string, swap func()) {
	base := t.TempDir()
	root = filepath.Join(base, "root")
	secret := filepath.Join(base, "secret")
	mustWrite(t, filepath.Join(secret, "f.txt"), "KEY-CANARY in the secret\n")
	mustWrite(t, filepath.Join(root, "sub", "f.txt"), "harmless\n")
	mustWrite(t, filepath.Join(root, "g.txt"), "harmless\n")
	return root, func() {
		must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(base, "sub.old")))
		must(t, os.Symlink(secret, filepath.Join(root, "sub")))
		must(t, os.Remove(filepath.Join(root, "g.txt")))
		must(t, os.Symlink(filepath.Join(secret, "f.txt"), filepath.Join(root, "g.txt")))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A directory or file swapped for a link while grep or glob walks is never
// read through: it is counted as a link not followed.
func TestWalkNeverFollowsALinkMadeMidWalk(t *testing.T) {
	if _, err := NewDisk().OpenTree(t.TempDir(), true); err != nil {
		t.Skipf("this kernel has no openat2: %v", err)
	}
	if l := filepath.Join(t.TempDir(), "link"); os.Symlink(".", l) != nil {
		t.Skip("this system makes no symlink (Windows without the privilege to)")
	} else if _, err := os.Lstat(l); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	root, swap := swapWorld(t)
	tools := &Tools{Store: &swapStore{Disk: NewDisk(), swap: swap}, Session: NewSession(), Root: root}
	r := tools.Grep(context.Background(), GrepArgs{Pattern: "KEY|harmless"})
	if strings.Contains(r.Text, "CANARY") || !strings.Contains(r.Text, "not followed") {
		t.Fatalf("grep across a swap:\n%s", r.Text)
	}
	root, swap = swapWorld(t)
	tools = &Tools{Store: &swapStore{Disk: NewDisk(), swap: swap}, Session: NewSession(), Root: root}
	r = tools.Glob(context.Background(), GlobArgs{Pattern: "**"})
	if strings.Contains(r.Text, "sub/f.txt") || strings.Contains(r.Text, "g.txt\n") {
		t.Fatalf("glob across a swap:\n%s", r.Text)
	}
}

// The tree refuses every link on the way, and the gate's real root itself
// when it became a link.
func TestDiskTreeRefusesLinks(t *testing.T) {
	base := t.TempDir()
	mustWrite(t, filepath.Join(base, "d", "f"), "x\n")
	must(t, os.Symlink(filepath.Join(base, "d"), filepath.Join(base, "link")))
	must(t, os.Symlink("../d/f", filepath.Join(base, "d", "lf")))
	if _, err := os.Lstat(filepath.Join(base, "link")); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	d := NewDisk()
	if _, err := d.OpenTree(base, true); err != nil {
		t.Skipf("this kernel has no openat2: %v", err)
	}
	if _, err := d.OpenTree(filepath.Join(base, "link"), true); !errors.Is(err, ErrLinkBelow) {
		t.Fatalf("a real root that is a link: %v", err)
	}
	if tr, err := d.OpenTree(filepath.Join(base, "link"), false); err != nil {
		t.Fatalf("a root given as written may be a link: %v", err)
	} else {
		tr.Close()
	}
	tr, err := d.OpenTree(base, true)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for _, rel := range []string{"link/f", "d/lf", "link"} {
		if _, err := tr.Read(rel); !errors.Is(err, ErrLinkBelow) {
			t.Errorf("read %s: %v", rel, err)
		}
		if _, err := tr.Stat(rel); !errors.Is(err, ErrLinkBelow) {
			t.Errorf("stat %s: %v", rel, err)
		}
	}
	if _, err := tr.List("link"); !errors.Is(err, ErrLinkBelow) {
		t.Errorf("list link: %v", err)
	}
	if snap, err := tr.Read("d/f"); err != nil || string(snap.Data) != "x\n" {
		t.Errorf("read d/f: %q %v", snap.Data, err)
	}
	if _, err := tr.Read("../x"); err == nil {
		t.Error("read ../x: escaped the tree")
	}
	es, err := tr.List("d")
	if err != nil || len(es) != 2 || es[0].Name != "f" || !es[1].Link {
		t.Errorf("list d: %+v %v", es, err)
	}
}

// swapGuard judges a path, then (the attacker's race) swaps it for a link
// into the secret before the tool reads it.
type swapGuard struct{ swap func(path string) }

func (g *swapGuard) Allow(_ context.Context, path string, _ Access) (string, error) {
	g.swap(path)
	return path, nil
}

func (g *swapGuard) SecretName(string) bool { return false }

func (g *swapGuard) SameReal(path, real string) bool { return true }

// A read, a listing and a grep of a file land on the path the gate judged
// or nowhere: never through a link made after the judgement.
func TestReadsNeverFollowALinkMadeAfterTheGate(t *testing.T) {
	if _, err := NewDisk().OpenTree(t.TempDir(), true); err != nil {
		t.Skipf("this kernel has no openat2: %v", err)
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	secret := filepath.Join(base, "secret")
	mustWrite(t, filepath.Join(secret, "key"), "KEY-CANARY one\nKEY-CANARY two\n")
	mustWrite(t, filepath.Join(root, "a.txt"), "one\ntwo\n")
	must(t, os.Mkdir(filepath.Join(root, "d"), 0o755))
	g := &swapGuard{swap: func(path string) {
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink == 0 {
			must(t, os.RemoveAll(path))
			target := filepath.Join(secret, "key")
			if filepath.Base(path) == "d" {
				target = secret
			}
			must(t, os.Symlink(target, path))
		}
	}}
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root, Guard: g}
	for _, r := range []Result{
		tools.Read(context.Background(), ReadArgs{Path: "a.txt"}),
		tools.Read(context.Background(), ReadArgs{Path: "d"}),
	} {
		if !r.Failed || strings.Contains(r.Text, "CANARY") || strings.Contains(r.Text, "key") {
			t.Errorf("read through a swap:\n%s", r.Text)
		}
	}
	mustWrite(t, filepath.Join(root, "c.txt"), "x\n")
	if r := tools.Grep(context.Background(), GrepArgs{Pattern: "CANARY", Path: "c.txt"}); strings.Contains(r.Text, "KEY-CANARY") {
		t.Errorf("grep of a file through a swap:\n%s", r.Text)
	}
}
