//go:build open_attacks && unix

package gate

// The thirteenth red team's attacks on the question's escaper that got
// through (build tag open_attacks): each test asserts the safe outcome
// and fails today.

import (
	"testing"
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
