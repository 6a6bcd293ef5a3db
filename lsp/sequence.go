package lsp

import (
	"fmt"
	"slices"
	"time"

	lsproto "go.lsp.dev/protocol"
)

// Text sync in version order. An editor may send its didChange
// notifications out of order on the wire (Helix: 3, 1, 2, 5, 4 under fast
// typing); each one's ranges are in the text the version before it left,
// so applying them in arrival order makes a copy that the editor never
// held. The overlay applies them strictly in version order: one that
// skips ahead is held back until the missing versions come, at most
// gapWait; past it, or when a version comes after a later one was
// applied, the document is lost: its reads and edits are refused until
// the editor opens it again. A copy is the editor's text at some version,
// or it is not served.

// defaultGapWait bounds how long a notification that skips ahead is held
// for the versions before it. Reordered notifications arrive within
// milliseconds of each other; the bound is also how long a read waits.
const defaultGapWait = 500 * time.Millisecond

// versionOrder is how a client numbers its document versions.
type versionOrder int

const (
	// gapless: each didChange is the version after the one before (VS
	// Code, Helix, the client libraries): a skip means notifications are
	// still on their way.
	gapless versionOrder = iota
	// increasing: versions only go up, with gaps, and the notifications
	// come in order (Neovim numbers them by changedtick, which also counts
	// writes and the changes its debounce merged; Eglot by changes, several
	// to a notification): a skip is normal, a version that goes back means
	// the order broke.
	increasing
)

// orderOf is the version numbering of a client, by its name at
// initialize: the clients known to leave gaps, else gapless (a client
// that leaves gaps unannounced has its documents lost after gapWait, never
// served wrong).
func orderOf(clientName, kind string) versionOrder {
	switch clientName {
	case "Neovim", "Eglot", "emacs":
		return increasing
	}
	if kind == "nvim" {
		return increasing
	}
	return gapless
}

// notification is one didChange.
type notification struct {
	version int32
	changes []lsproto.TextDocumentContentChangeEvent
}

// sequence is a document's notifications held back, and whether its copy
// is lost.
type sequence struct {
	held []notification // by version; the first skips ahead of the document's
	lost string         // why the copy is not known; "" while it is
	gen  uint64         // counts holds, so a stale bound ends nothing
	done chan struct{}  // closed when the current hold ends
}

// arrive decides what a notification does to a document at version cur:
// the notifications to apply now, in order. wasHolding tells whether a
// hold was under way before it (a new hold starts its bound).
func (s *sequence) arrive(cur int32, n notification, order versionOrder) (ready []notification, wasHolding bool) {
	wasHolding = s.holding()
	if s.lost != "" {
		return nil, wasHolding
	}
	late := n.version < cur || (order == gapless && n.version == cur) ||
		slices.ContainsFunc(s.held, func(h notification) bool { return h.version == n.version })
	if late {
		s.lose(fmt.Sprintf("its change of version %d came after version %d: the editor sent its changes out of order", n.version, max(cur, s.top())))
		return nil, wasHolding
	}
	if order == increasing {
		return []notification{n}, wasHolding
	}
	i, _ := slices.BinarySearchFunc(s.held, n.version, func(h notification, v int32) int { return int(h.version - v) })
	s.held = slices.Insert(s.held, i, n)
	next := cur
	for len(s.held) > 0 && s.held[0].version == next+1 {
		ready = append(ready, s.held[0])
		next = s.held[0].version
		s.held = s.held[1:]
	}
	if len(s.held) > 0 && s.done == nil {
		s.done = make(chan struct{})
	}
	if len(s.held) == 0 {
		s.held = nil
		s.settle()
	}
	return ready, wasHolding
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

// expire ends hold gen when it is still under way: the document at
// version cur is lost.
func (s *sequence) expire(gen uint64, cur int32) {
	if gen != s.gen || !s.holding() || s.lost != "" {
		return
	}
	s.lose(fmt.Sprintf("its change of version %d never came, though version %d did", cur+1, s.held[0].version))
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
