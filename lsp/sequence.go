package lsp

import (
	"fmt"
	"slices"
	"time"

	lsproto "go.lsp.dev/protocol"
)

// Text sync in version order, whatever the client's name (a buffer
// applied out of order is a buffer the agent edits blind). Editors number their versions in different ways, none of which a
// name tells reliably:
//
//   - one more per didChange (VS Code, Helix), and sent out of order on
//     the wire (Helix: 3, 1, 2, 5, 4 under fast typing): each one's
//     ranges are in the text the version before it left, so applying
//     them in arrival order makes a copy the editor never held;
//   - with gaps, in order (Neovim numbers by changedtick: its didOpen is
//     version 0 and its first didChange 5; Eglot numbers changes, several
//     to a notification): the LSP allows it;
//   - with repeats and gaps, whole text each time (Vim's yegappan/lsp, by
//     changedtick).
//
// So the rules, learnt from what the client does (numbering):
//
//   - A full-text change is the whole truth whatever its version: it
//     resets the copy, makes an unknown document known again, and drops
//     the notifications held below it.
//   - An incremental change one above the copy's version applies; one
//     that repeats the last version seen applies after it, in arrival
//     order, unless the client was seen to reorder.
//   - One that skips ahead is held, at most gapWait, for the versions
//     before it. When they come, the client reorders (numbering.reorders).
//     When they do not, the gap is the client's numbering: the held ones
//     apply in order and from then on gaps apply at once (numbering.gaps) —
//     unless the client was seen to reorder, when the missing version may
//     still be on its way: the document is unknown.
//   - One below the copy's version (or a version already held) means the
//     order broke: the document is unknown.
//
// Unknown is never for good: reads and edits are refused with what to do
// (unknownError), and a full-text change or a didOpen makes it known.

// defaultGapWait bounds how long a notification that skips ahead is held
// for the versions before it. Reordered notifications arrive within
// milliseconds of each other; the bound is also how long a read waits.
const defaultGapWait = 500 * time.Millisecond

// numbering is what the client showed of how it numbers and sends its
// versions, on any of its documents.
type numbering struct {
	// gaps: a skip that was never filled, so skips are its numbering.
	gaps bool
	// reorders: a version came after a later one (and filled its gap, or
	// came too late).
	reorders bool
}

// inOrderWithGaps tells whether the client leaves gaps and sends its
// changes in order (Neovim, Eglot): a later version then tells what the
// editor held after the earlier one (landing.go).
func (n numbering) inOrderWithGaps() bool { return n.gaps && !n.reorders }

// notification is one didChange.
type notification struct {
	version int32
	changes []lsproto.TextDocumentContentChangeEvent
}

// full tells whether a notification holds a full-text change: from its
// last one on, its text does not depend on the copy.
func (n notification) full() bool {
	return slices.ContainsFunc(n.changes, func(c lsproto.TextDocumentContentChangeEvent) bool {
		_, ok := c.(*lsproto.TextDocumentContentChangeWholeDocument)
		return ok
	})
}

// sequence is a document's notifications held back, and whether its copy
// is unknown.
type sequence struct {
	held []notification // by version; the first skips ahead of the document's
	lost string         // why the copy is not known; "" while it is
	gen  uint64         // counts holds, so a stale bound ends nothing
	done chan struct{}  // closed when the current hold ends
}

// arrive decides what a notification does to a document at version cur:
// the notifications to apply now, in order. wasHolding tells whether a
// hold was under way before it (a new hold starts its bound).
func (s *sequence) arrive(cur int32, n notification, num *numbering) (ready []notification, wasHolding bool) {
	wasHolding = s.holding()
	if n.full() {
		s.lost = ""
		s.held = slices.DeleteFunc(s.held, func(h notification) bool { return h.version <= n.version })
		return s.drain(n.version, []notification{n}), wasHolding
	}
	if s.lost != "" {
		return nil, wasHolding
	}
	// A repeat of the copy's version, nothing held: a client that numbers
	// by a tick some changes do not move (Vim's changedtick). It comes in
	// arrival order, so it applies, unless the client reorders.
	repeat := n.version == cur && !wasHolding && !num.reorders
	if n.version < cur || (n.version == cur && !repeat) {
		num.reorders = true
		s.lose(fmt.Sprintf("its change of version %d came after version %d: the editor sent its changes out of order", n.version, max(cur, s.top())))
		return nil, wasHolding
	}
	if !wasHolding && (repeat || n.version == cur+1 || num.inOrderWithGaps()) {
		return s.drain(n.version, []notification{n}), wasHolding
	}
	// It skips ahead, or a hold is under way: held, after any of its
	// version (a repeat), until the versions before it come.
	i, _ := slices.BinarySearchFunc(s.held, n.version+1, func(h notification, v int32) int { return int(h.version - v) })
	if i < len(s.held) {
		num.reorders = true // it came after a later version
	}
	s.held = slices.Insert(s.held, i, n)
	return s.drain(cur, nil), wasHolding
}

// drain takes the held notifications that follow version cur, in order,
// after ready; it ends the hold when none is left.
func (s *sequence) drain(cur int32, ready []notification) []notification {
	for len(s.held) > 0 && (s.held[0].version == cur+1 || s.held[0].version == cur) {
		ready = append(ready, s.held[0])
		cur = s.held[0].version
		s.held = s.held[1:]
	}
	if len(s.held) > 0 && s.done == nil {
		s.done = make(chan struct{})
	}
	if len(s.held) == 0 {
		s.held = nil
		s.settle()
	}
	return ready
}

// top is the highest version held, or 0.
func (s *sequence) top() int32 {
	if len(s.held) == 0 {
		return 0
	}
	return s.held[len(s.held)-1].version
}

// holding tells whether notifications are held back.
func (s *sequence) holding() bool { return len(s.held) > 0 }

// waiting is what a read waits on while notifications are held back, or
// nil.
func (s *sequence) waiting() <-chan struct{} {
	if !s.holding() {
		return nil
	}
	return s.done
}

// expire ends hold gen when it is still under way, for a document at
// version cur: the held notifications to apply, in order. The missing
// versions did not come: the gap is the client's numbering, unless it was
// seen to reorder, when the document is unknown.
func (s *sequence) expire(gen uint64, cur int32, num *numbering) []notification {
	if gen != s.gen || !s.holding() || s.lost != "" {
		return nil
	}
	if num.reorders {
		s.lose(fmt.Sprintf("its change of version %d never came, though version %d did", cur+1, s.held[0].version))
		return nil
	}
	num.gaps = true
	ready := s.held
	s.held = nil
	s.settle()
	return ready
}

func (s *sequence) lose(why string) {
	s.lost = why
	s.held = nil
	s.settle()
}

// settle ends the current hold.
func (s *sequence) settle() {
	if s.done != nil {
		close(s.done)
		s.done = nil
	}
}
