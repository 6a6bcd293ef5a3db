package docs

import (
	"fmt"
	"slices"
)

// Piece is one line of an edited file: a line of the old file (Old > 0),
// kept byte for byte with its own ending, or a new line (Old == 0).
type Piece struct {
	Old  int
	Text string
}

// Applied is a section's ops applied to a file's lines.
type Applied struct {
	Pieces  []Piece
	Map     []int   // Map[i-1]: the new number of old line i, 0 when it went
	Written LineSet // new numbers of the lines the edit wrote
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
// Inserts at the same place keep their patch order.
func ApplyOps(ops []Op, n int) (Applied, error) {
	if err := CheckOps(ops, n); err != nil {
		return Applied{}, err
	}
	inserts := make(map[int][]Op)
	replaces := make(map[int]Op)
	for _, o := range ops {
		if o.Kind == OpReplace {
			replaces[o.A] = o
		} else {
			g := o.gap(n)
			inserts[g] = append(inserts[g], o)
		}
	}
	a := Applied{Map: make([]int, n), Pieces: make([]Piece, 0, n)}
	write := func(lines []string) {
		for _, t := range lines {
			a.Pieces = append(a.Pieces, Piece{Text: t})
			a.Written.Add(len(a.Pieces))
		}
	}
	for g := 0; g <= n; g++ {
		for _, o := range inserts[g] {
			write(o.Lines)
		}
		if g == n {
			break
		}
		line := g + 1
		if r, ok := replaces[line]; ok {
			write(r.Lines)
			g = r.B - 1
			continue
		}
		a.Pieces = append(a.Pieces, Piece{Old: line})
		a.Map[line-1] = len(a.Pieces)
	}
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
			l := p.Lines[pc.Old-1]
			out = append(out, p.Src[l.Start:l.End]...)
			if l.Ending != NoEnding {
				out = append(out, l.Ending.Bytes()...)
				carry = l.Ending
			} else if !last {
				out = append(out, separator(p.Src[l.Start:l.End], carry)...)
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
