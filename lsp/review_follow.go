package lsp

// Undo under typing: a hunk's lens follows it in the editor while the
// user types elsewhere in the file, so undo follows it too. The file's
// text now is the text the edit left with the user's changes; each hunk
// moves by the changes before it, and one whose own lines changed (or a
// line was put right at it) is marked typed: undoing it would take the
// user's typing away too, so it is refused.

// follow moves f's hunks from f.after to cur, their text now.
func (b *reviewBook) follow(f *reviewFile, cur []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	typing := hunks(f.after, cur)
	for i := range f.hunks {
		h := &f.hunks[i]
		shift := 0
		for _, u := range typing {
			switch {
			case touch(h.at, h.end, u.oldAt, u.oldEnd):
				h.typed = true
			case u.oldEnd <= h.at:
				shift += (u.newEnd - u.newAt) - (u.oldEnd - u.oldAt)
			}
		}
		h.at += shift
		h.end += shift
		if h.typed {
			// it stands somewhere around here; it is never undone, only
			// kept or shown
			h.end = min(max(h.end, h.at), len(cur))
			h.at = min(h.at, h.end)
		}
	}
	f.after = cur
}
