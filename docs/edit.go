package docs

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// EditArgs are the edit tool's arguments: one patch (DESIGN.md §3.2).
type EditArgs struct {
	Patch string `json:"patch"`
}

// staged is one section made ready to commit.
type staged struct {
	sec       Section
	abs, dest string
	shown     string // the file as the reply names it
	destShown string // a move's destination as the reply names it; "" for none
	p         Projection
	cur       Digest
	v         *Version // the version the tag names
	toCur     []int    // v's lines onto the current ones; nil when v is current
	curLines  []uint64 // the current lines' hashes, when v is not current
	ops       []Op     // in current numbering
	applied   Applied
	change    Change
	already   bool     // the edit is already in the file (S8.2)
	refusal   *Refusal // the rebase under the writer's lock refused: why, with the lines now
	landed    Digest   // the digest of the bytes it publishes (set by commit)
	unbuilt   bool     // staged, its new bytes not made yet (build)
	unmapped  bool     // landed as the store made it anew (restageRebased): no line of it counts as seen
}

// Edit is the edit tool: parse, plan (planEdit: the files each section
// names), judge each path (judgeEdit), read and stage every section
// (tags, ranges, overlaps, stale versions, seen anchors: stageAll), then
// commit all or nothing (S8.1, S8.2, S8.8).
func (t *Tools) Edit(ctx context.Context, a EditArgs) Result {
	secs, err := ParsePatch(a.Patch)
	if err != nil {
		return failed("%v", err)
	}
	planned, planErr := planEdit(secs, t.Abs, t.Display)
	ts, err := t.judgeEdit(ctx, planned)
	if err != nil {
		return refused("NOT applied: ", err)
	}
	if planErr != nil {
		return failed("%v", planErr)
	}
	var w editWork
	defer w.release()
	batch := t.beginEdit(ts)
	if batch != nil {
		defer batch.Close()
	}
	w.read(t, ts)
	defer w.wait() // every scan and build ends before the snapshots go back
	st, unseen, r := t.stageAll(&w, ts, batch)
	if r != nil {
		return notApplied(r)
	}
	w.work.Wait()
	if ctx.Err() != nil {
		// Checked once, before anything is marked seen or committed: the
		// commit below runs to its end whatever happens to ctx then.
		return cancelled("edit", sectionNames(st), "nothing was written")
	}
	if len(unseen) > 0 {
		return Result{Text: t.refuseUnseen(st, unseen), Failed: true, Kind: NotApplied, Unseen: unseen}
	}
	return t.commit(st, batch)
}

// refuseUnseen is the reply to an edit whose anchors the model has not
// seen; when Reveal shows them whole, they count as seen now.
func (t *Tools) refuseUnseen(st []*staged, unseen []Anchor) string {
	rej := Reveal(unseen)
	if rej.Whole {
		for _, s := range st {
			for _, an := range unseen {
				if an.Path == t.Display(s.abs) {
					s.v.Seen.Add(an.Line)
				}
			}
		}
	}
	return rej.Text
}

// scanned is a file read for an edit, and for a tagged section (one that
// changes the file) its lines and digest, made before it is staged.
type scanned struct {
	snap Snapshot
	err  error
	gate string // ReadGate's refusal of the file
	p    Projection
	cur  Digest
	done bool // gate, p and cur are set
}

// scan reads a file an edit names and, for a tagged section of a file
// that can have a tag, judges it as read does (ReadGate: binary, another
// encoding), scans its lines and digests it.
func (t *Tools) scan(real, shown string, tagged bool) scanned {
	snap, err := t.readReal(real)
	sc := scanned{snap: snap, err: err}
	if err == nil && tagged && snap.Stat.Exists && !snap.Stat.Dir && len(snap.Data) <= MaxSnapshotFileBytes {
		sc.gate, sc.done = ReadGate(shown, snap.Data), true
		if sc.gate == "" {
			sc.p, sc.cur = Scan(snap.Data), DigestOf(snap.Data)
		}
	}
	return sc
}

// stage checks one section against the file as it is now and applies it in
// memory; a refusal refuses the whole edit. sc, when not nil, is
// the file's scan; the new bytes are made by build.
func (t *Tools) stage(s *staged, snap Snapshot, sc *scanned) *Refusal {
	shown := t.Display(s.abs)
	if !s.sec.Tagged {
		if snap.Stat.Exists {
			return refuseSection(shown, RefusedExists, "%s exists; a section without a tag creates a new file. To change it, read it and use its [%s#TAG] header. Nothing was written.", shown, shown)
		}
		content := []byte{} // not nil: a nil New is a bare move to the Store
		if len(s.sec.Create) > 0 {
			content = []byte(strings.Join(s.sec.Create, "\n") + "\n")
		}
		s.p = Scan(content)
		s.change = Change{Path: s.abs, Create: true, New: content}
		s.applied.Written.AddRange(1, len(s.p.Lines))
		return nil
	}
	switch {
	case !snap.Stat.Exists:
		return refuseSection(shown, RefusedMissing, "%s does not exist now (moved or deleted since it was read?). Nothing was written.", shown)
	case snap.Stat.Dir:
		return refuseSection(shown, RefusedDir, "%s is a directory. Nothing was written.", shown)
	case len(snap.Data) > MaxSnapshotFileBytes:
		return refuseSection(shown, RefusedTooLarge, "%s is over the 4 MiB limit and has no tag; change it with write or bash. Nothing was written.", shown)
	}
	gate := ""
	if sc != nil && sc.done {
		gate = sc.gate
	} else {
		gate = ReadGate(shown, snap.Data)
	}
	if gate != "" {
		return refuseSection(shown, RefusedNotText, "%s Nothing was written.", gate)
	}
	s.v = t.Session.ByTag(s.abs, s.sec.Tag)
	if s.v == nil {
		return refuseSection(shown, RefusedUnknownTag, "#%s is not a version of %s that this session saw; read %s and use the tag it shows. Nothing was written.", s.sec.Tag, shown, shown)
	}
	if sc != nil && sc.done {
		s.p, s.cur = sc.p, sc.cur
	} else {
		s.p, s.cur = Scan(snap.Data), DigestOf(snap.Data)
	}
	ops := s.sec.Ops
	if err := CheckOps(ops, len(s.v.Lines)); err != nil {
		return refuseSection(shown, RefusedOps, "%s#%s: %v. Nothing was written.", shown, s.sec.Tag, err)
	}
	if s.cur != s.v.Digest {
		curLines := LineHashes(s.p)
		s.curLines = curLines
		if s.sec.Move == "" {
			if t.Session.HasLanded(LandedKey(s.abs, s.v.Digest, ops)) {
				s.already = true // this very section landed before (S8.2)
				return nil
			}
			if after, err := ApplyHashes(ops, s.v.Lines, xxhash.Sum64String); err == nil && slices.Equal(after, curLines) {
				s.already = true
				return nil
			}
		}
		s.toCur = LineMap(s.v.Lines, curLines)
		var changed []int
		if ops, changed = Rebase(ops, s.toCur); len(changed) > 0 {
			return t.refuseStale(s, changed)
		}
	}
	s.ops = ops
	applied, err := ApplyRuns(ops, len(s.p.Lines))
	if err != nil {
		return refuseSection(shown, RefusedOps, "%s: %v. Nothing was written.", shown, err)
	}
	s.applied = applied
	s.change = Change{Path: s.abs, Old: snap.Data, OldStamp: snap.Stamp, MoveTo: s.dest, OldDigest: s.cur, NewDigest: s.cur, Digested: true}
	s.unbuilt = len(s.sec.Ops) > 0 // a move alone keeps the bytes: New stays nil
	return nil
}

// build makes the new bytes of a staged section, and their digest.
func (s *staged) build() {
	if s.unbuilt {
		s.change.New = Persist(s.p, s.applied.Pieces)
		s.change.NewDigest = DigestOf(s.change.New)
		s.unbuilt = false
	}
}

// unseen lists the section's anchors that its version has not seen; their
// text comes from the current file (a rebased anchor's line is unchanged).
func (s *staged) unseen() []Anchor {
	var out []Anchor
	for i, o := range s.sec.Ops {
		a, b := o.Anchors()
		for ln := a; ln <= b; ln++ {
			if s.v.Seen.Has(ln) {
				continue
			}
			cur := ln
			if s.toCur != nil {
				cur = s.ops[i].A + (ln - a)
			}
			out = append(out, Anchor{Path: "", Tag: s.sec.Tag.String(), Line: ln, Text: string(s.p.Text(cur))})
		}
	}
	for i := range out {
		out[i].Path = s.shown
	}
	return out
}

// name is the section as the reply names it: "a", or "a -> b" for a move.
func (s *staged) name() string {
	if s.destShown != "" {
		return s.shown + " -> " + s.destShown
	}
	return s.shown
}

// refuseStale refuses a stale section whose lines changed, and shows what
// those lines are now, as rows of the current version (which count as seen).
func (t *Tools) refuseStale(s *staged, changed []int) *Refusal {
	shown := t.Display(s.abs)
	cur := t.Session.Saw(s.abs, s.p, s.cur)
	var show LineSet
	for _, ln := range changed {
		lo, hi := 1, len(s.p.Lines)
		for k := ln - 1; k >= 1; k-- {
			if s.toCur[k-1] != 0 {
				lo = s.toCur[k-1] + 1
				break
			}
		}
		for k := ln + 1; k <= len(s.toCur); k++ {
			if s.toCur[k-1] != 0 {
				hi = s.toCur[k-1] - 1
				break
			}
		}
		if hi >= lo {
			show.AddRange(lo, hi)
		}
	}
	var rs []Range
	show.Each(func(a, b int) { rs = append(rs, Range{a, b}) })
	head := fmt.Sprintf("%s changed since #%s was read, and the edit stands on %s of it, which changed. Nothing was written. Those lines are now:",
		shown, s.sec.Tag, spellLines(changed))
	if len(rs) == 0 {
		return refuseSection(shown, RefusedStale, "%s\n[%s#%s: gone]\n", head, shown, s.cur.Tag())
	}
	view := Render(ViewRequest{Path: shown, P: s.p, Tag: s.cur.Tag().String(), Ranges: rs, Bound: DefaultReadBound / 4})
	view.Shown.Each(cur.Seen.AddRange)
	return refuseSection(shown, RefusedStale, "%s\n%s[redo the edit against this tag]", head, view.Text)
}

// rebaser is a section's rebase under the writer's lock (S8.1 with the
// rebase of S8.2): the bytes the file holds then are staged as a stale
// tag's would be; when a line the section stands on changed, it refuses,
// and the refusal shows those lines as they are now.
func (t *Tools) rebaser(s *staged) func(cur []byte) ([]byte, error) {
	return func(cur []byte) ([]byte, error) {
		if r := t.stage(s, Snapshot{Data: cur, Stat: Stat{Exists: true}}, nil); r != nil {
			s.refusal = r
			return nil, fmt.Errorf("%s changed after the edit was made, on lines the edit stands on; read it again and redo the edit", s.name())
		}
		if s.already {
			return nil, fmt.Errorf("%s changed after the edit was made, and holds this very edit now (another writer made it); read it again", s.name())
		}
		s.build()
		return s.change.New, nil // nil for a move alone: the file moves as it is
	}
}

// commit publishes the staged sections, through the batch begun for them
// when there is one, and records what landed.
func (t *Tools) commit(st []*staged, batch Batch) Result {
	var changes []Change
	var names []string
	var idx []*staged
	var already []string
	for _, s := range st {
		if s.already {
			already = append(already, fmt.Sprintf("%s#%s", s.name(), s.cur.Tag()))
			continue
		}
		c := s.change
		c.Begun = batch // nil when none was begun
		changes = append(changes, c)
		names = append(names, s.name())
		idx = append(idx, s)
	}
	alreadyNote := ""
	if len(already) > 0 {
		alreadyNote = fmt.Sprintf("The edit is already in the file: %s; nothing written for it.", strings.Join(already, ", "))
	}
	if len(changes) == 0 {
		return Result{Text: alreadyNote}
	}
	res := t.Store.Commit(changes)
	t.restageRebased(idx, changes, res)
	if c := res.Conflict; c != nil && idx[c.Index].refusal != nil {
		// The rebase's refusal, with the lines as they are now, in the
		// shape of every commit's reply: what was NOT applied, first.
		r := idx[c.Index].refusal
		return Result{Text: fmt.Sprintf("NOT applied to %s: %s%s", strings.Join(names, ", "), r.Why, t.recovered(res)),
			Failed: true, Kind: NotApplied, Refusal: r}
	}
	landedAs := make([]string, len(changes))
	for i := range changes {
		c := idx[i].change // as the rebase under the lock left it
		if c.Digested {
			idx[i].landed = c.NewDigest
		} else {
			newBytes := c.New
			if newBytes == nil {
				newBytes = c.Old
			}
			idx[i].landed = DigestOf(newBytes)
		}
		landedAs[i] = fmt.Sprintf("%s#%s", t.Display(t.Abs(c.Target())), idx[i].landed.Tag())
	}
	text, isErr := Reply(names, landedAs, res)
	if res.Conflict == nil {
		for i, o := range res.Outcomes {
			if o.Fate == Landed {
				t.record(idx[i])
			}
		}
	}
	if alreadyNote != "" {
		text += "\n" + alreadyNote
	}
	return committed(text+t.recovered(res), isErr, names, res)
}

// recovered is what a commit found and finished of interrupted commits
// before it ran (journal.go), as lines that end the reply.
func (t *Tools) recovered(res Committed) string {
	var b strings.Builder
	for _, r := range res.Recovered {
		b.WriteString("\n" + r.Text(t.Display))
	}
	return b.String()
}

// record updates the session after a section landed: the lines seen before
// (mapped through the edit) and the lines it wrote stay seen (S8.8).
func (t *Tools) record(s *staged) {
	c := s.change
	target := t.Abs(c.Target())
	var seen LineSet
	if !s.unmapped {
		s.applied.Written.Each(seen.AddRange)
	}
	if s.v != nil && c.MoveTo == "" {
		t.Session.DidLand(LandedKey(s.abs, s.v.Digest, s.sec.Ops))
	}
	if s.v != nil {
		toNew := func(cur int) int { return s.applied.Map[cur-1] }
		fromV := toNew
		if s.toCur != nil {
			fromV = func(ln int) int {
				if cur := s.toCur[ln-1]; cur > 0 {
					return toNew(cur)
				}
				return 0
			}
		}
		mapLines(&s.v.Seen, fromV, &seen)
		if cv := t.Session.Knows(s.abs, s.cur); cv != nil && cv != s.v {
			mapLines(&cv.Seen, toNew, &seen)
		}
	}
	if c.MoveTo != "" {
		t.Session.Forget(s.abs)
	}
	v := t.Session.SawWith(target, s.landed, func() []uint64 { return s.newLines() })
	seen.Each(v.Seen.AddRange)
}

// newLines hashes the edited file's lines without scanning it again: a
// kept line's hash is known, a written one is hashed.
func (s *staged) newLines() []uint64 {
	base := s.curLines
	if base == nil && s.v != nil {
		base = s.v.Lines
	}
	if s.v == nil || (!s.p.BOM && len(s.applied.Pieces) > 0 && strings.HasPrefix(s.pieceText(0), string(BOM))) {
		// A created file; or a first line that starts with the BOM's bytes
		// in a file without one, which reads back as a BOM: scan it.
		return LineHashes(Scan(s.change.New))
	}
	out := make([]uint64, 0, s.applied.Lines)
	for _, pc := range s.applied.Pieces {
		if pc.Old > 0 {
			out = append(out, base[pc.Old-1:pc.Old-1+pc.lines()]...)
		} else {
			out = append(out, xxhash.Sum64String(pc.Text))
		}
	}
	return out
}

// mapLines adds to dst the lines of src that f maps to a line (> 0), run
// by run, so a whole file costs a few AddRange calls, not one a line.
func mapLines(src *LineSet, f func(int) int, dst *LineSet) {
	lo, hi := 0, -1
	src.Each(func(a, b int) {
		for ln := a; ln <= b; ln++ {
			n := f(ln)
			switch {
			case n <= 0:
				continue
			case n == hi+1:
				hi = n
				continue
			}
			dst.AddRange(lo, hi)
			lo, hi = n, n
		}
	})
	dst.AddRange(lo, hi)
}

// allOf runs checks in order; nil when none is set.
func allOf(checks []func() error) func() error {
	var set []func() error
	for _, c := range checks {
		if c != nil {
			set = append(set, c)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return func() error {
		for _, c := range set {
			if err := c(); err != nil {
				return err
			}
		}
		return nil
	}
}

// pieceText is the text of the first line of piece i.
func (s *staged) pieceText(i int) string {
	if pc := s.applied.Pieces[i]; pc.Old == 0 {
		return pc.Text
	}
	return string(s.p.Text(s.applied.Pieces[i].Old))
}

// restageRebased stages again, over the text the store found, each
// section the store made anew itself (an editor's buffer the user typed
// in between the check and the apply: lsp's rebase), so the reply's tag
// and the lines recorded seen are those of the text that landed, not of
// the text the edit was checked against. A section that stages to other
// bytes than landed is recorded by its landed bytes alone: none of its
// lines counts as seen.
func (t *Tools) restageRebased(idx []*staged, changes []Change, res Committed) {
	if res.Conflict != nil {
		return
	}
	for i, o := range res.Outcomes {
		c := changes[i]
		if o.Fate != Landed || !o.Rebased || c.New == nil || bytes.Equal(c.New, idx[i].change.New) {
			continue
		}
		s := idx[i]
		if nb, err := t.rebaser(s)(c.Old); err == nil && bytes.Equal(nb, c.New) {
			continue
		}
		s.change.New, s.change.NewDigest, s.change.Digested = c.New, DigestOf(c.New), false
		s.v, s.unmapped = nil, true
	}
}
