package docs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// The final check under the writer's lock rebases as a stale tag does
// (S8.1 with S8.2's rebase): a file changed between staging and the lock
// only on lines the edit does not touch takes the edit over those changes,
// and the reply says it rebased; a change on a line it stands on is
// refused, with the lines as they are now.

func lockRebaseRig(t *testing.T) (*wsRig, string, []byte) {
	dir := t.TempDir()
	old := []byte("one\ntwo\nthree\nfour\nfive\n")
	files := []wsFile{
		{name: "a.txt", old: old, mode: 0o644},
		{name: "b.txt", old: []byte("b\n"), mode: 0o644},
	}
	r := newRig(t, dir, files)
	r.readAll(t)
	patch := fmt.Sprintf("[a.txt#%s]\n@@ 2\n+TWO\n[b.txt#%s]\n@@ 1\n+B\n", docs.DigestOf(old).Tag(), docs.DigestOf(files[1].old).Tag())
	return r, patch, old
}

// theirsAtLock makes another program write a.txt while the writer takes
// its first lock: after the edit was staged, before the final check.
func theirsAtLock(t *testing.T, r *wsRig, theirs string) {
	done := false
	r.disk.Fault = func(step, _ string) error {
		if step == "lock" && !done {
			done = true
			must(t, os.WriteFile(r.abs("a.txt"), []byte(theirs), 0o644))
		}
		return nil
	}
}

func TestDisk_lock_rebases_untouched_lines(t *testing.T) {
	for _, c := range []struct{ theirs, want string }{
		{"one\ntwo\nthree\nfour\nFIVE\n", "one\nTWO\nthree\nfour\nFIVE\n"},             // a line after
		{"zero\none\ntwo\nthree\nfour\nfive\n", "zero\none\nTWO\nthree\nfour\nfive\n"}, // a line before: the edit's line moves
		{"one\ntwo\nthree\n", "one\nTWO\nthree\n"},                                     // lines after removed
		{"one\r\ntwo\nthree\nfour\nfive\n", "one\r\nTWO\r\nthree\nfour\nfive\n"},       // the line before ends in CRLF: the new line takes its ending
	} {
		theirs, want := c.theirs, c.want
		t.Run(strings.ReplaceAll(theirs, "\n", "|"), func(t *testing.T) {
			r, patch, _ := lockRebaseRig(t)
			theirsAtLock(t, r, theirs)
			res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
			got, _ := os.ReadFile(r.abs("a.txt"))
			if res.Failed || string(got) != want {
				t.Fatalf("a.txt holds %q, want %q; reply:\n%s", got, want, res.Text)
			}
			if !strings.HasPrefix(res.Text, "Applied to a.txt#"+docs.DigestOf([]byte(want)).Tag().String()) || !strings.Contains(res.Text, "Rebased: a.txt changed") {
				t.Fatalf("the reply names the rebased bytes' tag and says it rebased:\n%s", res.Text)
			}
			if b, _ := os.ReadFile(r.abs("b.txt")); string(b) != "B\n" {
				t.Fatalf("b.txt holds %q", b)
			}
			// The session knows what landed: the next edit with the tag the
			// reply gave applies.
			at := strings.Count(want[:strings.Index(want, "TWO")], "\n") + 1
			next := fmt.Sprintf("[a.txt#%s]\n@@ %d\n+2\n", docs.DigestOf([]byte(want)).Tag(), at)
			r.disk.Fault = nil
			if res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: next}); res.Failed {
				t.Fatalf("an edit with the rebased tag:\n%s", res.Text)
			}
		})
	}
}

func TestDisk_lock_refuses_touched_lines(t *testing.T) {
	for _, theirs := range []string{
		"one\n2\nthree\nfour\nfive\n", // the edited line itself
		"one\nthree\nfour\nfive\n",    // removed
	} {
		t.Run(strings.ReplaceAll(theirs, "\n", "|"), func(t *testing.T) {
			r, patch, _ := lockRebaseRig(t)
			theirsAtLock(t, r, theirs)
			res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
			got, _ := os.ReadFile(r.abs("a.txt"))
			b, _ := os.ReadFile(r.abs("b.txt"))
			if !res.Failed || string(got) != theirs || string(b) != "b\n" {
				t.Fatalf("a.txt holds %q, b.txt %q; reply:\n%s", got, b, res.Text)
			}
			if !strings.Contains(res.Text, "Nothing was written") || !strings.Contains(res.Text, "line 2") {
				t.Fatalf("the refusal names the changed line and says nothing was written:\n%s", res.Text)
			}
		})
	}
}

// Eight writers, each with its own session, edit their own line of one
// file round after round, concurrently: none is refused (no two touch the
// same line), and the file ends with every writer's last round.
func TestDisk_concurrent_writers_refused_only_on_real_conflicts(t *testing.T) {
	const writers, rounds = 8, 12
	dir := t.TempDir()
	path := filepath.Join(dir, "shared.txt")
	var init strings.Builder
	for w := range writers {
		fmt.Fprintf(&init, "writer %d round -\n", w)
	}
	must(t, os.WriteFile(path, []byte(init.String()), 0o644))
	var wg sync.WaitGroup
	refused := make([][]string, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
			for round := range rounds {
				res := tools.Read(context.Background(), docs.ReadArgs{Path: "shared.txt"})
				head, _, _ := strings.Cut(res.Text, "\n")
				tag := head[strings.Index(head, "#")+1 : strings.Index(head, "]")]
				patch := fmt.Sprintf("[shared.txt#%s]\n@@ %d\n+writer %d round %d\n", tag, w+1, w, round)
				if res := tools.Edit(context.Background(), docs.EditArgs{Patch: patch}); res.Failed {
					refused[w] = append(refused[w], res.Text)
				}
			}
		}()
	}
	wg.Wait()
	for w, rs := range refused {
		for _, r := range rs {
			t.Errorf("writer %d was refused without a conflict:\n%s", w, r)
		}
	}
	got, _ := os.ReadFile(path)
	var want strings.Builder
	for w := range writers {
		fmt.Fprintf(&want, "writer %d round %d\n", w, rounds-1)
	}
	if string(got) != want.String() {
		t.Fatalf("the file holds\n%s\nwant\n%s", got, want.String())
	}
}

// Two writers over the same line: one lands, the other is refused and
// shown the line as it is; no update is lost without a word.
func TestDisk_concurrent_writers_same_line(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	old := []byte("head\nthe line\ntail\n")
	must(t, os.WriteFile(path, old, 0o644))
	const n = 6
	res := make([]docs.Result, n)
	var wg sync.WaitGroup
	// every writer reads the same version before any writes
	sessions := make([]*docs.Tools, n)
	for i := range n {
		sessions[i] = &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
		sessions[i].Read(context.Background(), docs.ReadArgs{Path: "a.txt"})
	}
	for i, tools := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = tools.Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 2\n+writer %d\n", docs.DigestOf(old).Tag(), i)})
		}()
	}
	wg.Wait()
	landed := -1
	for i, r := range res {
		if !r.Failed {
			if landed >= 0 {
				t.Fatalf("writers %d and %d both landed on one line:\n%s\n%s", landed, i, res[landed].Text, r.Text)
			}
			landed = i
			continue
		}
		if !strings.Contains(r.Text, "line 2") || !strings.Contains(r.Text, "Nothing was written") {
			t.Errorf("writer %d's refusal:\n%s", i, r.Text)
		}
	}
	got, _ := os.ReadFile(path)
	if landed < 0 || string(got) != fmt.Sprintf("head\nwriter %d\ntail\n", landed) {
		t.Fatalf("landed %d, the file holds %q", landed, got)
	}
}
