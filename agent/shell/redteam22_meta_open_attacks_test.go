//go:build open_attacks && linux

package shell

// The twenty-second red team's attacks on the Landlock metadata judge
// (confine_notify_linux.go) that GOT THROUGH. Each asserts the safe
// outcome, so it fails while the hole is open. Run with -tags
// open_attacks.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (got through, low): a hard link that existed before the step.
// in/h is another name of out/f (the user's cp -al, a pnpm store, a
// link made by hand); the judge checks the name's path, which is
// inside, so chmod 04777, setxattr and utimes on in/h change out/f. (The
// step may write its content too, through the same name, under
// bubblewrap as well: the metadata adds set-user-ID and xattrs.) Safe
// outcome: out/f unchanged (a file with more than one link judged by
// all its names, or refused).
func TestRedteam22_PreexistingHardLinkCarriesTheCallOutside(t *testing.T) {
	w := newR22World(t)
	if err := os.Link(filepath.Join(w.out, "f"), filepath.Join(w.in, "h")); err != nil {
		t.Fatal(err)
	}
	before := w.outsideState(t)
	out := w.run(t, `
print("R22 chmod", call("chmod", "h", 0o4777, 0))
print("R22 setxattr", call("setxattr", "h", 0, 0))
print("R22 utimensat", call("utimensat", "h", 0, 2001))
`)
	w.unchanged(t, before, out)
}

// Attack (got through, low): reading a file outside moves its atime.
// Landlock lets a step read outside the workspace on a writable mount,
// so the kernel updates the access time of what it reads (relatime:
// when it is older than the change, or a day old); bubblewrap's
// read-only bind does not. A step allowed read only (cat) marks the
// user's mailbox read (mail readers compare atime with mtime), or
// refreshes a file a cleaner would delete by its age. Safe outcome:
// the atime unchanged.
func TestRedteam22_ReadingAFileOutsideMovesItsAtime(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read))
	p := filepath.Join(cw.outside, "mbox")
	if err := os.WriteFile(p, []byte("From a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, old, old.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	before := metaOf(t, p)
	res := cw.run("cat " + p)
	if !strings.Contains(res.Text, "From a") {
		t.Fatalf("the step did not read the file:\n%s", res.Text)
	}
	if now := metaOf(t, p); now.atime != before.atime {
		t.Errorf("%s: atime %v -> %v, moved by a step that may only read it:\n%s", p, time.Unix(before.atime.Unix()).UTC(), time.Unix(now.atime.Unix()).UTC(), res.Text)
	}
}
