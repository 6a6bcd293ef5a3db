package lsp

import (
	"bytes"
	"slices"
	"sort"

	lsproto "go.lsp.dev/protocol"
)

// text is a document's bytes with the offset of every line start, so a
// position becomes an offset without a scan. A line ends at '\n'; a '\r'
// before it belongs to the ending, a lone '\r' is text (the document
// core's line model, and Neovim's).
type text struct {
	b      []byte
	starts []int // starts[i] is where line i begins; starts[0] is 0
}

func newText(b []byte) text {
	t := text{b: b, starts: make([]int, 1, 1+bytes.Count(b, nl))}
	t.starts = appendStarts(t.starts, b, 0)
	return t
}

var nl = []byte{'\n'}

// appendStarts appends the line starts that s's newlines open, s standing
// at offset base.
func appendStarts(starts []int, s []byte, base int) []int {
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, base+i)
	}
}

// line is line i's text without its ending.
func (t *text) line(i int) []byte {
	from, to := t.starts[i], len(t.b)
	if i+1 < len(t.starts) {
		to = t.starts[i+1] - 1
		if to > from && t.b[to-1] == '\r' {
			to--
		}
	}
	return t.b[from:to]
}

// offset is the byte offset of a position; a position past the last line
// is the end of the text, one past a line's end is that line's end.
func (t *text) offset(p lsproto.Position, e encoding) int {
	if int(p.Line) >= len(t.starts) {
		return len(t.b)
	}
	return t.starts[p.Line] + e.byteOffset(t.line(int(p.Line)), p.Character)
}

// position is the position of a byte offset.
func (t *text) position(off int, e encoding) lsproto.Position {
	i := sort.SearchInts(t.starts, off+1) - 1
	line := t.line(i)
	n := min(off-t.starts[i], len(line))
	return lsproto.Position{Line: uint32(i), Character: e.units(line[:n])}
}

// replace puts s in place of the bytes [from, to) and moves the line starts
// after it: one copy of the tail, one pass over the starts after it.
func (t *text) replace(from, to int, s []byte) {
	l0 := sort.SearchInts(t.starts, from+1) - 1 // the line holding from
	l1 := sort.SearchInts(t.starts, to+1) - 1   // and to
	delta := len(s) - (to - from)
	t.b = slices.Replace(t.b, from, to, s...)
	tail := t.starts[l1+1:]
	for i := range tail {
		tail[i] += delta
	}
	mid := appendStarts(nil, s, from)
	t.starts = slices.Replace(t.starts, l0+1, l1+1, mid...)
}
