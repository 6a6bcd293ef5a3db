//go:build open_attacks && unix

package gate

// The thirteenth red team's attacks on the question's escaper that got
// through (build tag open_attacks): each test asserts the safe outcome
// and fails today.

import (
	"testing"
	"time"
)

// Attack (target 7; severity low-medium): no bidi control at all — the
// names are Hebrew letters, printable and strong right-to-left — yet
// `cp א ב` is drawn as `cp ב א` in a left-to-right question (the two
// names and the space between form one right-to-left run), so the user
// reads the copy backwards: the file that is overwritten is the one shown
// as the source. VisibleText leaves it as it is.
// Root cause (guess): the escaper treats the reordering as the controls'
// alone; strong right-to-left letters beside neutrals reorder as well
// (each word would need an isolate, or the names be quoted one by one).
func TestRedteam13Open_RightToLeftNamesReorderUnescaped(t *testing.T) {
	v := VisibleText("cp א ב")
	if v == "cp א ב" {
		t.Errorf("a right-to-left pair of names is shown so that it draws reversed: %q", v)
	}
}

// Attack (target 5; severity low: it needs a file system whose clock
// lags this machine's by more than the slack, and a link the user makes
// within the minute): on a network file system the change time is the
// server's clock. With the server 3 s behind, a hard link made to
// ~/.aws/credentials right after a walk of the home (a read of any file
// with two names) carries a change time before the walk; the kept walk
// is used, it never met the file with two names, and the new name in the
// workspace is read and written as a plain file.
// Root cause (guess): Inode.Changed (a file system's clock) is compared
// with the walk's start (this machine's clock); the slack (1 s) covers a
// coarse clock, not a skewed one. Comparing with a change time read from
// the same file system when the walk began (a stamp file's ctime, or the
// top directory's), or walking again for every file with more names than
// the walk met, would not depend on the clocks agreeing.
func TestRedteam13Open_LinkOnALaggingFileSystemIsNotSecret(t *testing.T) {
	r, w := r13linkAfterWalk(t, r13skewFS{InodeFS: OS.(InodeFS), lag: 3 * time.Second}, 0)
	if r != ClassSecret || w != ClassSecret {
		t.Errorf("ESCAPED: a link made on a file system 3 s behind: read %v, write %v", r, w)
	}
}
