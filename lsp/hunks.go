package lsp

import (
	"bytes"

	"github.com/cespare/xxhash/v2"

	"github.com/eukhe/eukhe/docs"
)

// hunk is one changed run of whole lines: the old lines [OldFrom, OldTo)
// became the new lines [NewFrom, NewTo) (0-based line numbers), which are
// the bytes [oldAt, oldEnd) of the old text and [newAt, newEnd) of the new.
type hunk struct {
	OldFrom, OldTo, NewFrom, NewTo int
	oldAt, oldEnd, newAt, newEnd   int
}

// lines splits b into its lines, each with its ending.
func lines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		out = append(out, b[:i])
		b = b[i:]
	}
	return out
}

// hunks is the line diff of two texts: the fewest whole-line replacements
// that turn old into new, so that an editor keeps every line outside them
// (and the cursors and marks on those lines) as it is.
func hunks(old, new []byte) []hunk {
	a, b := lines(old), lines(new)
	ha, hb := hashLines(a), hashLines(b)
	m := docs.LineMap(ha, hb) // m[i] is the new number (from 1) of old line i+1, or 0
	var out []hunk
	i, j := 0, 0 // the next old and new lines not yet accounted for
	oa, nb := 0, 0
	flush := func(i2, j2, oa2, nb2 int) {
		if i2 > i || j2 > j {
			out = append(out, hunk{OldFrom: i, OldTo: i2, NewFrom: j, NewTo: j2, oldAt: oa, oldEnd: oa2, newAt: nb, newEnd: nb2})
		}
	}
	oOff := offsets(a)
	nOff := offsets(b)
	for k := range a {
		if m[k] == 0 || !bytes.Equal(a[k], b[m[k]-1]) {
			continue
		}
		jk := m[k] - 1
		flush(k, jk, oOff[k], nOff[jk])
		i, j = k+1, jk+1
		oa, nb = oOff[i], nOff[j]
	}
	flush(len(a), len(b), len(old), len(new))
	return out
}

func hashLines(ls [][]byte) []uint64 {
	h := make([]uint64, len(ls))
	for i, l := range ls {
		h[i] = xxhash.Sum64(l)
	}
	return h
}

// offsets gives each line's start, and the end after the last.
func offsets(ls [][]byte) []int {
	out := make([]int, len(ls)+1)
	for i, l := range ls {
		out[i+1] = out[i] + len(l)
	}
	return out
}
