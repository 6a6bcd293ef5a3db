package lsp

import (
	"context"
	"slices"
	"time"
)

// Landing under typing. The didChange that shows an edit may carry the
// user's own typing with it (Neovim merges the changes of its debounce
// into one notification), so a document has landed an edit when its text
// is the edit's new text with only changes of the user's that touch none
// of the edit's lines (holds). Putting an edit back works the same way:
// the edit's lines go back to their old text and the user's changes stay
// (rebaseBack). A user who typed on the edit's own lines makes both
// unknowable: the edit is then not confirmed, never guessed.

// holds tells whether cur is to with only changes that touch none of the
// lines the edit from → to changed: the edit is in cur.
func holds(from, to, cur []byte) bool {
	if slices.Equal(to, cur) {
		return true
	}
	_, ok := merged(from, to, cur)
	return ok
}

// rebaseBack is cur with the edit from → to taken out: the edit's lines
// get their old text back, the user's other changes stay. ok is false when
// the user's changes touch the edit's lines.
func rebaseBack(from, to, cur []byte) ([]byte, bool) {
	return merged(from, to, cur)
}

// merged applies, on to, both the edit's inverse (to → from) and the
// user's changes (to → cur), when no change of one touches a change of the
// other; the result is from with the user's changes.
func merged(from, to, cur []byte) ([]byte, bool) {
	ours := hunks(to, from) // in to's lines
	theirs := hunks(to, cur)
	type repl struct {
		at, end int // bytes of to
		text    []byte
	}
	var rs []repl
	for _, h := range ours {
		for _, u := range theirs {
			if touch(h.OldFrom, h.OldTo, u.OldFrom, u.OldTo) {
				return nil, false
			}
		}
		rs = append(rs, repl{h.oldAt, h.oldEnd, from[h.newAt:h.newEnd]})
	}
	for _, u := range theirs {
		rs = append(rs, repl{u.oldAt, u.oldEnd, cur[u.newAt:u.newEnd]})
	}
	slices.SortFunc(rs, func(a, b repl) int { return a.at - b.at })
	out := make([]byte, 0, len(cur)+len(from))
	at := 0
	for _, r := range rs {
		out = append(append(out, to[at:r.at]...), r.text...)
		at = r.end
	}
	return append(out, to[at:]...), true
}

// touch tells whether two line ranges [a0, a1) and [b0, b1) overlap; an
// empty range (an insertion point) touches a range it borders.
func touch(a0, a1, b0, b1 int) bool {
	if a0 == a1 || b0 == b1 {
		return a0 <= b1 && b0 <= a1
	}
	return a0 < b1 && b0 < a1
}

// awaitLanding waits for every watch: LandingWait while the documents are
// quiet; while one keeps changing without reaching its text (the user
// typing: Neovim's debounce, Eglot's didChange after 0.5 s without
// typing), each change gives LandingWait more, up to TypingWait in all.
// The watches were made with sig, which every change of their documents
// pokes.
//
// A client that applies an edit before it answers and tells its changes in
// order (ordered: Neovim, Eglot) has told, in any didChange that comes
// after its answer, a buffer that already had the edit if it was applied;
// Neovim skips an edit whose buffer is newer, so for it any version above
// the edit's tells as much. after[i] is that version for document i: a
// later version that holds the old text (with the user's changes
// elsewhere) and not the edit means the editor skipped it: skipped[i],
// known at once.
// saysInOrder tells the clients known to apply an edit before they
// answer and to tell their changes in order, for the landing only (a
// skipped edit known at once): the text's order never depends on a
// client's name (sequence.go), and any other client that shows gaps in
// order is taken as one too.
func saysInOrder(clientName, kind string) bool {
	switch clientName {
	case "Neovim", "Eglot", "emacs":
		return true
	}
	return kind == "nvim"
}

func (s *Server) awaitLanding(life context.Context, es []docEdit, ws []*watch, sig <-chan struct{}, after []int32) (reached, skipped []bool) {
	start := time.Now()
	ctx, cancel := context.WithCancel(life)
	defer cancel()
	s.landed(ctx, es, ws)
	skipped = make([]bool, len(es))
	settled := func() bool {
		reached := await(doneCtx(), ws)
		all := true
		for i, e := range es {
			if reached[i] || skipped[i] {
				continue
			}
			if after != nil && e.moveTo == "" {
				if v, open := s.ov.get(e.path); open && v.lost == nil && v.version > after[i] && holds(e.to, e.from, v.data) {
					select {
					case <-ws[i].reached: // it showed meanwhile
					default:
						skipped[i] = true
						continue
					}
				}
			}
			all = false
		}
		return all
	}
	deadline := start.Add(s.opts.LandingWait)
	for !settled() {
		wait := time.Until(deadline)
		if wait <= 0 {
			break
		}
		timer := time.NewTimer(wait)
		select {
		case <-life.Done():
		case <-sig:
			if !allReached(ws) {
				deadline = time.Now().Add(s.opts.LandingWait)
				if cap := start.Add(s.opts.TypingWait); deadline.After(cap) {
					deadline = cap
				}
			}
		case <-timer.C:
		}
		timer.Stop()
		if life.Err() != nil {
			break
		}
	}
	reached = await(doneCtx(), ws)
	for i := range skipped {
		skipped[i] = skipped[i] && !reached[i]
	}
	return reached, skipped
}

func allReached(ws []*watch) bool {
	for _, w := range ws {
		select {
		case <-w.reached:
		default:
			return false
		}
	}
	return true
}

// doneCtx is a context that has ended: await then only looks.
func doneCtx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
