package lsp

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// Rebase under typing. Users type while agents work: an edit checked
// against version 68 of a buffer meets version 69 at the editor (the user
// typed on another line), and the editor refuses it (VS Code checks every
// version) or skips it (Neovim). Such an edit was applied nowhere, so it
// is made again on the buffer's text now — the edit's lines replaced, the
// user's changes kept (merged: the same line rule landing uses) — and
// sent again while the user types, up to TypingWait from the first send
// (at most maxRebases times in all). Only a user's change that
// touches the edit's own lines refuses it, and the reply names those
// lines. An edit the editor may have applied (no answer, applied: true)
// is never sent again: it is followed (landing.go).

// maxRebases bounds how many times one document's edit is sent, within
// TypingWait of its first send (apply.go): each send after the first
// waits for typingPause without a change, so this many fit in the wait.
const maxRebases = 32

// movedOn reports whether the open document's buffer is not the text the
// edit was made on any more (the user typed), while it is still open,
// known and judged as before: what makes a stale edit worth rebasing.
func (s *Server) movedOn(e docEdit) bool {
	v, open := s.ov.get(e.path)
	if !open || v.lost != nil || !e.back && s.ov.judge(v) != nil {
		return false
	}
	return v.version != e.version || !bytes.Equal(v.data, e.from)
}

// backToBase tells whether the open document's buffer is again exactly
// the text the edit was made on (at a later version).
func (s *Server) backToBase(e docEdit) bool {
	v, open := s.ov.get(e.path)
	return open && v.lost == nil && bytes.Equal(v.data, e.from)
}

// refusedWait is how long a refused edit's document is watched for the
// didChange of the typing that made the editor refuse it: the editor may
// answer before it tells the change (VS Code tells it 16 ms after, and
// hundreds of ms after on a loaded machine: the real VS Code test saw 300
// ms fall short). A refusal for another reason pays this wait once.
// Neovim's plugin refuses an edit whose buffer moved while Neovim's
// debounce still holds the change (told once the user pauses): for it the
// wait is TypingWait.
const refusedWait = 2 * time.Second

// typingPause is the quiet a stale edit's document is given before the
// edit is rebased on it and sent again, while the user keeps typing (up
// to TypingWait from the first send): sent again at once, each send met
// the next keystroke the editor had not told yet (VS Code refuses an
// edit whose version it has passed), and the real VS Code test saw the
// sends run out while the user still typed (CI).
const typingPause = 150 * time.Millisecond

// awaitPause waits, for each stale document of res, until the editor has
// told no change of it for typingPause, or until deadline.
func (s *Server) awaitPause(part []docEdit, res []applied, deadline time.Time) []applied {
	for k, a := range res {
		if !a.stale {
			continue
		}
		for time.Now().Before(deadline) && s.ov.waitChange(context.Background(), part[k].path, min(typingPause, time.Until(deadline))) {
		}
	}
	return res
}

// awaitMoved waits, for each refused document not seen moved yet, until
// its buffer moved on or the wait ends, and marks those that moved stale.
//
// applied: false is proof that nothing was applied only from a client
// that checks every version before it applies any (VS Code) or the
// Neovim plugin (which checks first). Neovim without the plugin answers
// applied: false when apply_workspace_edit fails after it made the text
// edits (a rename after them), any other client may answer an error after
// applying, and both tell the change after their answer (Neovim's
// debounce): a refused document of such a client whose buffer now holds
// the edit (with the user's changes elsewhere: the landing rule, holds)
// landed. Taken for typing, it would be rebased, refused as typing on
// its own lines, and told NOT applied while it is in the buffer, and a
// multi-file edit would leave it there unrestored
// (TestAnEditAppliedThenRefusedIsNotCalledNotApplied).
func (s *Server) awaitMoved(part []docEdit, res []applied, caps clientCaps) []applied {
	wait := s.opts.RefusedWait
	if caps.eukhe.ChecksVersions {
		wait = s.opts.TypingWait
	}
	trust := caps.refusalAppliesNothing()
	for k, a := range res {
		if !a.refused || a.stale && trust {
			continue
		}
		deadline := time.Now().Add(wait)
		// A refusal that proves nothing (the client may have applied the
		// edit and failed later) is waited on for the edit's own change
		// to the end, not only for the first change: the user's typing
		// told first, the edit's change later, and the edit was taken
		// for stale and sent again — it landed twice, reported not
		// applied (the twentieth red team's).
		// Its watch, kept since the send, tells a buffer that held the
		// edit at the end of any change, though the user typed on the
		// edit's lines right after (the same didChange's changes, or the
		// next one, told before this looks).
		w := a.watch
		seen := func() bool {
			if w == nil {
				return false
			}
			select {
			case <-w.reached:
				return true
			default:
				return false
			}
		}
		done := func() bool {
			if trust {
				return s.movedOn(part[k])
			}
			return seen() || s.holdsEdit(part[k])
		}
		for !done() && time.Now().Before(deadline) {
			s.ov.waitChange(context.Background(), part[k].path, min(50*time.Millisecond, time.Until(deadline)))
		}
		landed := !trust && (seen() || s.holdsEdit(part[k]))
		if w != nil {
			s.ov.unwatch(w)
			res[k].watch = nil
		}
		if landed {
			res[k] = applied{sent: true, landed: true}
			continue
		}
		res[k].stale = s.movedOn(part[k])
	}
	return res
}

// refusalAppliesNothing tells whether the client's refusal proves that
// nothing of the edit was applied: it checks every version before it
// applies anything (VS Code, the Neovim plugin).
func (c clientCaps) refusalAppliesNothing() bool {
	return c.checksEveryVersion() || c.eukhe.ChecksVersions
}

// holdsEdit tells whether the open document's buffer holds the edit e
// (its lines, with the user's changes elsewhere).
func (s *Server) holdsEdit(e docEdit) bool {
	v, open := s.ov.get(e.path)
	return e.moveTo == "" && open && v.lost == nil && holds(e.from, e.to, v.data)
}

// rebaseStale makes each stale edit of a batch again on its buffer's
// text now, and reports whether the batch is worth sending again: some
// edit was stale, all of them rebased, and nothing of the batch landed
// or may have (a document that landed is not sent twice). An edit whose
// lines the user changed gets the reason in its result.
func (s *Server) rebaseStale(part []docEdit, res []applied) bool {
	stale := false
	for _, a := range res {
		switch {
		case a.landed || a.unconfirmed:
			return false
		case a.stale:
			stale = true
		}
	}
	if !stale {
		return false
	}
	next := make([]docEdit, len(part))
	copy(next, part)
	for k, a := range res {
		if !a.stale {
			continue
		}
		v, _ := s.ov.get(part[k].path)
		e, err := s.rebaseOn(part[k], v)
		if err != nil {
			// the batch stops here: each of its documents says why (a
			// client that checks every version refused them together)
			for j := range res {
				if !res[j].landed && !res[j].unconfirmed {
					res[j].err = err
				}
			}
			return false
		}
		next[k] = e
	}
	copy(part, next)
	return true
}

// touchedLines says what the user's change from → cur did to the lines of
// from (1-based) that the edit from → to changes, or next to them, for
// a refusal: "changed line 2 of a.txt, which this edit replaces" where
// both changed the same lines, else the user's lines and the edit's
// apart ("added lines before line 2 of a.txt, next to line 2, which this
// edit replaces"). Every line it names is one the user changed, or the
// edit's; none past the end (TestLaw_a_refusal_names_only_lines_the_user_changed).
func touchedLines(from, to, cur []byte, name string) string {
	first, last := 0, 0
	var border *[2]hunk
	for _, h := range hunks(from, to) {
		for _, u := range hunks(from, cur) {
			if !touch(h.OldFrom, h.OldTo, u.OldFrom, u.OldTo) {
				continue
			}
			a, b := max(h.OldFrom, u.OldFrom), min(h.OldTo, u.OldTo)
			if a < b { // lines both changed
				if first == 0 || a+1 < first {
					first = a + 1
				}
				last = max(last, b)
			} else if border == nil {
				border = &[2]hunk{h, u}
			}
		}
	}
	if first > 0 {
		return fmt.Sprintf("changed %s of %s, which this edit replaces", lineSpan(first, last), name)
	}
	if border == nil { // not a refusal of touching changes: no lines to name
		return fmt.Sprintf("changed %s next to the lines this edit changes", name)
	}
	h, u := border[0], border[1]
	n := len(lines(from))
	var user, edit string
	switch {
	case u.OldFrom < u.OldTo:
		user = fmt.Sprintf("changed %s of %s", lineSpan(u.OldFrom+1, u.OldTo), name)
	case u.OldFrom >= n:
		user = fmt.Sprintf("added lines at the end of %s", name)
	default:
		user = fmt.Sprintf("added lines before line %d of %s", u.OldFrom+1, name)
	}
	switch {
	case h.OldFrom < h.OldTo:
		edit = fmt.Sprintf("next to %s, which this edit replaces", lineSpan(h.OldFrom+1, h.OldTo))
	case h.OldFrom >= n:
		edit = "next to the end, where this edit adds lines"
	default:
		edit = fmt.Sprintf("next to where this edit adds lines (before line %d)", h.OldFrom+1)
	}
	return user + ", " + edit
}

// lineSpan is "line 2" or "lines 2–4".
func lineSpan(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d–%d", first, last)
}

// rebaseOn is the edit e made again on the document's text now, v: its
// lines replaced, the user's changes kept; an error naming the lines when
// the user changed the edit's own lines.
func (s *Server) rebaseOn(e docEdit, v view) (docEdit, error) {
	to, ok := merged(e.to, e.from, v.data)
	if !ok {
		how := fmt.Sprintf("version %d → %d", e.version, v.version)
		if e.version == v.version {
			how = fmt.Sprintf("version %d again: closed and opened again?", v.version) // versions start again at each opening
		}
		return e, fmt.Errorf("the user %s (in the editor, %s), so it was not sent: read it again and redo the edit",
			touchedLines(e.from, e.to, v.data, s.display(e.path)), how)
	}
	return docEdit{uri: e.uri, path: e.path, version: v.version, from: v.data, to: to, moveTo: e.moveTo, back: e.back}, nil
}
