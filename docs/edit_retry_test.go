package docs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// S8.2: a retry of an end insert with its old tag does not insert again,
// even after the file changed once more since it landed — and the session
// remembers that across a save and load.
func TestRetry_after_a_further_change_is_already_in_the_file(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f.txt")
	mustWrite(t, p, "a\nb\n")
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	tools.Read(context.Background(), ReadArgs{Path: "f.txt"})
	t0 := DigestOf([]byte("a\nb\n")).Tag()
	appendC := fmt.Sprintf("[f.txt#%s]\n@@ $\n+c\n", t0)
	if r := tools.Edit(context.Background(), EditArgs{Patch: appendC}); r.Failed {
		t.Fatal(r.Text)
	}
	t1 := DigestOf([]byte("a\nb\nc\n")).Tag()
	if r := tools.Edit(context.Background(), EditArgs{Patch: fmt.Sprintf("[f.txt#%s]\n@@ 1\n+A\n", t1)}); r.Failed {
		t.Fatal(r.Text)
	}
	b, _ := json.Marshal(tools.Session)
	loaded := NewSession()
	if err := json.Unmarshal(b, loaded); err != nil {
		t.Fatal(err)
	}
	tools.Session = loaded
	r := tools.Edit(context.Background(), EditArgs{Patch: appendC})
	if r.Failed {
		t.Fatal(r.Text)
	}
	if !strings.Contains(r.Text, "already in the file") {
		t.Fatalf("the retry's reply: %s", r.Text)
	}
	if got, _ := os.ReadFile(p); string(got) != "A\nb\nc\n" {
		t.Fatalf("the retry inserted again: %q (%s)", got, r.Text)
	}
}
