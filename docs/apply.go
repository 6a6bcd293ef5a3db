package docs

import (
	"fmt"
	"slices"
)

// Piece is one line of an edited file: a line of the old file (Old > 0),
// kept byte for byte with its own ending, or a new line (Old == 0). A kept
// piece with N > 1 is a run: old lines Old to Old+N-1, each kept (N 0 and
// 1 both mean one line).
type Piece struct {
	Old  int
	Text string
	N    int
}

// lines is how many lines a piece is.
func (pc Piece) lines() int {
	if pc.Old > 0 && pc.N > 1 {
		return pc.N
	}
	return 1
}

// Applied is a section's ops applied to a file's lines.
type Applied struct {
	Pieces  []Piece // one a line (ApplyOps), or one a kept run (ApplyRuns)
	Map     []int   // Map[i-1]: the new number of old line i, 0 when it went
	Written LineSet // new numbers of the lines the edit wrote
	Lines   int     // how many lines the new file has
}

// OpError is an op that does not fit the file: out of range or overlapping.
type OpError struct {
	At  int // patch line
	Msg string
}

func (e *OpError) Error() string { return fmt.Sprintf("patch line %d: %s", e.At, e.Msg) }

// Anchors are the lines an op stands on, which must be seen (S8.8): every
// line a replace removes, the line an insert is placed against; ^ and $
// stand on no line.
func (o Op) Anchors() (a, b int) {
	switch o.Kind {
	case OpReplace:
		return o.A, o.B
	case OpInsertAfter, OpInsertBefore:
		return o.A, o.A
	}
	return 0, -1
}

// gap is where an insert goes: after line gap (0 = file start).
func (o Op) gap(n int) int {
	switch o.Kind {
	case OpInsertAfter:
		return o.A
	case OpInsertBefore:
		return o.A - 1
	case OpEnd:
		return n
	}
	return 0
}

// CheckOps refuses ops outside a file of n lines and ops that overlap: two
// replaces that share a line, or an insert placed against a replaced line.
func CheckOps(ops []Op, n int) error {
	var removed []Op
	for _, o := range ops {
		if o.Kind == OpReplace || o.Kind == OpInsertAfter || o.Kind == OpInsertBefore {
			if o.B > n || o.A > n {
				return &OpError{o.At, fmt.Sprintf("line %d is past the end: the file has %s", max(o.A, o.B), Count(n, "line"))}
			}
		}
		if o.Kind == OpReplace {
			removed = append(removed, o)
		}
	}
	slices.SortFunc(removed, func(x, y Op) int { return x.A - y.A })
	for i := 1; i < len(removed); i++ {
		if removed[i].A <= removed[i-1].B {
			return &OpError{removed[i].At, fmt.Sprintf("@@ %d-%d overlaps @@ %d-%d (patch line %d): ops in one section must not overlap; merge them into one",
				removed[i].A, removed[i].B, removed[i-1].A, removed[i-1].B, removed[i-1].At)}
		}
	}
	for _, o := range ops {
		if o.Kind != OpInsertAfter && o.Kind != OpInsertBefore {
			continue
		}
		for _, r := range removed {
			if o.A >= r.A && o.A <= r.B {
				return &OpError{o.At, fmt.Sprintf("the insert stands on line %d, which @@ %d-%d (patch line %d) replaces: ops in one section must not overlap; put the new lines into that replace",
					o.A, r.A, r.B, r.At)}
			}
		}
	}
	return nil
}

// ApplyOps applies checked ops to a file of n lines (edit_writes_new_lines):
// the lines before, then exactly the new lines, then the lines after.
// Inserts at the same place keep their patch order. It gives one piece a
// line; ApplyRuns gives the same lines as one piece a kept run.
func ApplyOps(ops []Op, n int) (Applied, error) {
	a, err := ApplyRuns(ops, n)
	if err != nil {
		return a, err
	}
	out := make([]Piece, 0, a.Lines)
	for _, pc := range a.Pieces {
		if pc.Old == 0 {
			out = append(out, pc)
			continue
		}
		for k := range pc.lines() {
			out = append(out, Piece{Old: pc.Old + k})
		}
	}
	a.Pieces = out
	return a, nil
}

// ApplyRuns is ApplyOps with each run of kept lines as one piece: the
// edit's cost follows its ops, not the file's lines (only Map has one
// entry a line).
func ApplyRuns(ops []Op, n int) (Applied, error) {
	if err := CheckOps(ops, n); err != nil {
		return Applied{}, err
	}
	var inserts []Op // in gap order, patch order within a gap
	replaces := make(map[int]Op)
	for _, o := range ops {
		if o.Kind == OpReplace {
			replaces[o.A] = o
		} else {
			inserts = append(inserts, o)
		}
	}
	slices.SortStableFunc(inserts, func(x, y Op) int { return x.gap(n) - y.gap(n) })
	// The places where something happens, in order: gaps with inserts,
	// lines with replaces.
	type stop struct {
		line int // the replace's first line; else 0
		gap  int
	}
	var stops []stop
	for _, o := range inserts {
		if k := len(stops) - 1; k < 0 || stops[k].line != 0 || stops[k].gap != o.gap(n) {
			stops = append(stops, stop{gap: o.gap(n)})
		}
	}
	for a := range replaces {
		stops = append(stops, stop{line: a, gap: a - 1})
	}
	slices.SortStableFunc(stops, func(x, y stop) int {
		if x.gap != y.gap {
			return x.gap - y.gap
		}
		return x.line - y.line // the inserts of a gap before the replace after it
	})
	a := Applied{Map: make([]int, n), Pieces: make([]Piece, 0, 2*len(ops)+1)}
	write := func(lines []string) {
		for _, t := range lines {
			a.Pieces = append(a.Pieces, Piece{Text: t})
			a.Lines++
			a.Written.Add(a.Lines)
		}
	}
	keep := func(from, to int) { // old lines from..to, kept
		if to < from {
			return
		}
		if k := len(a.Pieces) - 1; k >= 0 && a.Pieces[k].Old > 0 && a.Pieces[k].Old+a.Pieces[k].N == from {
			a.Pieces[k].N += to - from + 1 // an empty insert between: one run
		} else {
			a.Pieces = append(a.Pieces, Piece{Old: from, N: to - from + 1})
		}
		for ln := from; ln <= to; ln++ {
			a.Lines++
			a.Map[ln-1] = a.Lines
		}
	}
	next, ins := 1, 0 // the next old line not yet placed; the next insert
	for _, st := range stops {
		keep(next, st.gap)
		next = max(next, st.gap+1)
		if st.line == 0 {
			for ; ins < len(inserts) && inserts[ins].gap(n) == st.gap; ins++ {
				write(inserts[ins].Lines)
			}
			continue
		}
		r := replaces[st.line]
		write(r.Lines)
		next = r.B + 1
	}
	keep(next, n)
	return a, nil
}

// Persist writes pieces over the file they came from (persist_weaves_carry,
// edit_keeps_untouched_bytes): the BOM as it was; a kept line with its own
// bytes and ending; a new line, or a kept last line that no longer ends the
// file, followed by the carry — the ending of the line before it, at the
// file's start its first ending, else LF (CRLF after a text that ends in a
// lone CR: see separator). A file whose last line had no
// ending still ends without one when the edit wrote its last line, unless
// that line is empty: an empty line without an ending is no line.
func Persist(p Projection, pieces []Piece) []byte {
	size := len(p.Src) + 2*len(pieces)
	for _, pc := range pieces {
		size += len(pc.Text)
	}
	out := make([]byte, 0, size)
	if p.BOM {
		out = append(out, BOM...)
	}
	carry := p.FirstEnding()
	for i, pc := range pieces {
		last := i == len(pieces)-1
		if pc.Old > 0 {
			// A run of kept lines is one copy: only the file's last line
			// can lack an ending, so every line but the run's last has one.
			first, l := p.Lines[pc.Old-1], p.Lines[pc.Old+pc.lines()-2]
			out = append(out, p.Src[first.Start:l.End]...)
			if l.Ending != NoEnding {
				out = append(out, l.Ending.Bytes()...)
				carry = l.Ending
			} else {
				if pc.lines() > 1 {
					carry = p.Lines[pc.Old+pc.lines()-3].Ending
				}
				if !last {
					out = append(out, separator(p.Src[l.Start:l.End], carry)...)
				}
			}
			continue
		}
		out = append(out, pc.Text...)
		if !last || !p.EndsOpen() || pc.Text == "" {
			out = append(out, separator([]byte(pc.Text), carry)...)
		}
	}
	return out
}

// separator is the carry written after a line's text. After a text that
// ends in a lone CR, an LF would read back as that CR's CRLF ending and
// cut the CR off the text; such a line gets CRLF, so it reads back as the
// line it is.
func separator(text []byte, carry Ending) []byte {
	if carry == LF && len(text) > 0 && text[len(text)-1] == '\r' {
		return CRLF.Bytes()
	}
	return carry.Bytes()
}
