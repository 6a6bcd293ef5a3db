package docs_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// An edit's refusal is a value: the file it names (a move's source, not
// "a -> b"), its kind, and its reason; the reply is rendered from it and
// nothing takes the text apart again. The three places a section is
// refused: staging, the stale tag's rebase, and the rebase under the
// writer's lock.
func TestEditRefusalIsAValue(t *testing.T) {
	check := func(t *testing.T, res docs.Result, file string, kind docs.RefusalKind, prefix string) {
		t.Helper()
		r := res.Refusal
		if !res.Failed || res.Kind != docs.NotApplied || r == nil || r.File != file || r.Kind != kind {
			t.Fatalf("got %+v (refusal %+v); want file %s kind %d", res, r, file, kind)
		}
		if strings.HasPrefix(r.Why, "NOT applied") || !strings.HasPrefix(res.Text, prefix) || !strings.Contains(res.Text, r.Why) {
			t.Fatalf("the reply is not rendered from the refusal:\n%s\nwhy: %s", res.Text, r.Why)
		}
	}
	t.Run("a moved file that is gone", func(t *testing.T) {
		r, _, old := lockRebaseRig(t)
		must(t, os.Remove(r.abs("a.txt")))
		res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\nMV c.txt\n", docs.DigestOf(old).Tag())})
		check(t, res, "a.txt", docs.RefusedMissing, "NOT applied: a.txt does not exist now")
	})
	t.Run("a stale tag on changed lines", func(t *testing.T) {
		r, patch, _ := lockRebaseRig(t)
		must(t, os.WriteFile(r.abs("a.txt"), []byte("one\nzwei\nthree\nfour\nfive\n"), 0o644))
		res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
		check(t, res, "a.txt", docs.RefusedStale, "NOT applied: a.txt changed since #")
	})
	t.Run("changed under the writer's lock", func(t *testing.T) {
		r, patch, _ := lockRebaseRig(t)
		theirsAtLock(t, r, "one\nzwei\nthree\nfour\nfive\n")
		res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
		check(t, res, "a.txt", docs.RefusedStale, "NOT applied to a.txt, b.txt: a.txt changed since #")
	})
	t.Run("unseen anchors", func(t *testing.T) {
		r, _, old := lockRebaseRig(t)
		r.tools.Session = docs.NewSession()
		r.tools.Read(context.Background(), docs.ReadArgs{Path: "a.txt:1-2"})
		res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 4\n+FOUR\n", docs.DigestOf(old).Tag())})
		if !res.Failed || res.Kind != docs.NotApplied || len(res.Unseen) != 1 || res.Unseen[0].Path != "a.txt" || res.Unseen[0].Line != 4 {
			t.Fatalf("got %+v", res)
		}
	})
}
