package lsp

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// undo puts back the text of the picked hunks: one change per file, from
// the text the edit left to that text with those hunks reverted, through
// the same commit as the agent's edits (the editor for an open document,
// else the disk). A file that changed since the edit (the user typed)
// has its hunks followed to where they stand now (review_follow.go); a
// hunk whose own lines changed is refused. The caller holds commitMu.
func (s *Server) undo(e *reviewEdit, sel picked) protocol.ReviewDecisionResult {
	files := make([]*reviewFile, 0, len(sel))
	for f := range sel {
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b *reviewFile) int { return strings.Compare(a.path, b.path) })
	var cs []docs.Change
	var names, landedAs []string
	var tos [][]byte // each file's text as revert gave it, its hunks placed in it
	for _, f := range files {
		name := s.display(f.path)
		if f.fixed != "" {
			return protocol.ReviewDecisionResult{Message: fmt.Sprintf("undo refused: %s: %s", name, f.fixed)}
		}
		snap, err := s.store.Read(f.path)
		switch {
		case err != nil:
			return protocol.ReviewDecisionResult{Message: fmt.Sprintf("undo refused: %s cannot be read: %v", name, err)}
		case !snap.Stat.Exists:
			return protocol.ReviewDecisionResult{Message: fmt.Sprintf("undo refused: %s is gone since edit %s; undo it in the editor (its undo history holds the edit), or ask the agent", name, e.id)}
		case !bytes.Equal(snap.Data, f.after):
			s.review.follow(f, snap.Data)
		}
		for _, k := range sel[f] {
			if f.hunks[k].typed {
				return protocol.ReviewDecisionResult{Message: fmt.Sprintf("undo refused: %s: its lines of that hunk changed since edit %s (someone typed on them), so putting the hunk back would undo that too; undo it in the editor (its undo history holds the edit), or ask the agent", name, e.id)}
			}
		}
		to := f.revert(sel[f])
		cs = append(cs, docs.Change{Path: f.path, Old: snap.Data, New: to})
		tos = append(tos, to)
		names = append(names, name)
	}
	res := s.commit(cs, false, false)
	for k, name := range names {
		// cs[k].New as it landed: made again over typing during the
		// undo's apply (rebase.go), it is not the text revert gave
		landedAs = append(landedAs, fmt.Sprintf("%s#%s", name, docs.DigestOf(cs[k].New).Tag()))
	}
	text, isErr := docs.Reply(names, landedAs, res)
	all := res.Conflict == nil
	for k, f := range files {
		if res.Conflict == nil && res.Outcomes[k].Fate == docs.Landed {
			// the hunks left stand in tos[k]; typing the undo was made
			// again over is followed at the next undo (follow)
			s.review.undone(e, f, sel[f], tos[k])
		} else {
			all = false
		}
	}
	return protocol.ReviewDecisionResult{Applied: all && !isErr, Message: "undo: " + text}
}

// revert is the file's text with the hunks at positions ks put back as
// they were before the edit.
func (f *reviewFile) revert(ks []int) []byte {
	out := bytes.Clone(f.after)
	hs := slices.Clone(ks)
	slices.SortFunc(hs, func(a, b int) int { return f.hunks[b].at - f.hunks[a].at }) // last first
	for _, k := range hs {
		h := f.hunks[k]
		out = slices.Replace(out, h.at, h.end, h.before...)
	}
	return out
}

// undone records an undo that landed: the file's new text, its undone
// hunks gone, the others moved to where they stand now.
func (b *reviewBook) undone(e *reviewEdit, f *reviewFile, ks []int, now []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	rest := without(f.hunks, ks)
	for i := range rest {
		delta := 0
		for _, k := range ks {
			if u := f.hunks[k]; u.at < rest[i].at {
				delta += len(u.before) - (u.end - u.at)
			}
		}
		rest[i].at += delta
		rest[i].end += delta
	}
	f.after, f.hunks = now, rest
	if len(rest) == 0 {
		b.forget(e, f)
	}
}
