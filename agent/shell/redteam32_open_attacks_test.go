//go:build open_attacks && linux

package shell

// The thirty-second red team's attacks on confine.Narrow and the link
// targets that GOT THROUGH (each asserts the safe outcome, so it fails
// while the hole is open). The held ones are in
// redteam32_held_linux_test.go, with the helpers both files use.

import (
	"testing"
)

// Attack (false positive: confine.Narrow under Landlock; GOT THROUGH,
// medium): the approved everyday edits of
// TestRedteam32_ApprovedSedInPlaceWorksUnderBubblewrap (`sed -i
// s/Ann/Bob/ .git/config`, careful auto set; `sed -i s/a/b/
// ~/.ssh/config`, default) fail under Landlock: "couldn't open temporary
// file .git/sedXXXXXX: Permission denied". Before the narrowing an
// approval of protected (secret) left the place writable whole. Root
// cause: the narrowed Landlock rules give the named file alone, and sed
// -i (perl -i, git's config.lock, every editor's atomic save) writes a
// new file beside it and renames it over it. Safe outcome: both edits
// made. Suggested fix: give the named file's directory the right to make
// and rename a regular file whose name is not a protected or secret
// entry (Landlock's MAKE_REG, REFER on the directory), then check what
// was made there after the step (the made scan), or run such a step
// under bubblewrap's narrowing once its holes above are closed.
func TestRedteam32_ApprovedSedInPlaceFailsUnderLandlock(t *testing.T) {
	useMechanism(t, Landlock)
	r32ApprovedSedInPlace(t)
}
