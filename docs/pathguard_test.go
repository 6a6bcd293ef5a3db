package docs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeGuard refuses paths holding "secret", records what it judged, and
// says a path no longer resolves where it did once moved is set.
type fakeGuard struct {
	mu     sync.Mutex
	judged []string
	moved  bool
}

func (g *fakeGuard) Allow(_ context.Context, path string, a Access) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.judged = append(g.judged, fmt.Sprintf("%s %v", filepath.Base(path), a))
	if strings.Contains(path, "secret") {
		return "", errors.New("read " + path + " did not run (read, secret): unanswered. Ask the user.")
	}
	return path, nil
}

func (g *fakeGuard) SecretName(string) bool { return false }

func (g *fakeGuard) SameReal(path, real string) bool { return !g.moved }

// Every document access goes through the gate once, before anything is
// read or written (G1.6); a refusal reaches the model and nothing happens.
func TestGuard_judges_every_access(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.txt"), "one\ntwo\n")
	mustWrite(t, filepath.Join(root, "secret.txt"), "key\n")
	g := &fakeGuard{}
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root, Guard: g}
	if r := tools.Read(context.Background(), ReadArgs{Path: "secret.txt"}); !r.Failed || !strings.Contains(r.Text, "did not run") || strings.Contains(r.Text, "key") {
		t.Fatalf("a refused read: %+v", r)
	}
	if r := tools.Write(context.Background(), WriteArgs{Path: "secret.txt", Content: "x"}); !r.Failed {
		t.Fatalf("a refused write ran: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "secret.txt")); string(b) != "key\n" {
		t.Fatalf("secret.txt is %q", b)
	}
	if r := tools.Grep(context.Background(), GrepArgs{Pattern: "key", Path: "secret.txt"}); !r.Failed {
		t.Fatalf("a refused grep ran: %+v", r)
	}
	r := tools.Read(context.Background(), ReadArgs{Path: "a.txt:1-2"})
	if r.Failed {
		t.Fatal(r.Text)
	}
	tag := DigestOf([]byte("one\ntwo\n")).Tag()
	if e := tools.Edit(context.Background(), EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 1\n+ONE\nMV b.txt\n", tag)}); e.Failed {
		t.Fatal(e.Text)
	}
	want := []string{"secret.txt read", "secret.txt write", "secret.txt search", "a.txt read", "a.txt write", "b.txt write"}
	if strings.Join(g.judged, ",") != strings.Join(want, ",") {
		t.Fatalf("judged %v, want %v", g.judged, want)
	}
}

// The writer re-resolves under its lock (G1.7): a path that resolves
// elsewhere now writes nothing.
func TestGuard_changed_real_path_writes_nothing(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.txt"), "one\n")
	g := &fakeGuard{}
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root, Guard: g}
	tools.Read(context.Background(), ReadArgs{Path: "a.txt"})
	g.moved = true
	e := tools.Edit(context.Background(), EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 1\n+ONE\n", DigestOf([]byte("one\n")).Tag())})
	if !e.Failed || !strings.Contains(e.Text, "Nothing was written") || !strings.Contains(e.Text, "a link changed") {
		t.Fatalf("edit over a changed resolution: %+v", e)
	}
	w := tools.Write(context.Background(), WriteArgs{Path: "a.txt", Content: "x\n"})
	if !w.Failed {
		t.Fatalf("write over a changed resolution: %+v", w)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\n" {
		t.Fatalf("a.txt is %q", b)
	}
}
