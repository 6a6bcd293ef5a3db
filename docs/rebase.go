package docs

import "fmt"

// maxDiffCost bounds the line diff: past this many differing lines the diff
// keeps only the common head and tail, and a stale edit whose lines fall
// between is refused (a read again is the cheap way out then). The diff's
// history grows with its square: 1000 keeps it near 8 MB.
const maxDiffCost = 1000

// LineMap maps the lines of an old version onto the current one through a
// line diff (Myers, over line hashes): LineMap(old, cur)[i-1] is the current
// number of old line i, or 0 when that line changed or went.
func LineMap(old, cur []uint64) []int {
	m := make([]int, len(old))
	pre := 0
	for pre < len(old) && pre < len(cur) && old[pre] == cur[pre] {
		m[pre] = pre + 1
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(cur)-pre && old[len(old)-1-suf] == cur[len(cur)-1-suf] {
		m[len(old)-1-suf] = len(cur) - suf
		suf++
	}
	a, b := old[pre:len(old)-suf], cur[pre:len(cur)-suf]
	for _, pair := range myers(a, b) {
		m[pre+pair[0]] = pre + pair[1] + 1
	}
	return m
}

// myers returns the matched index pairs of a shortest edit script, or none
// when the script costs more than maxDiffCost.
func myers(a, b []uint64) [][2]int {
	n, mm := len(a), len(b)
	if n == 0 || mm == 0 {
		return nil
	}
	maxD := min(n+mm, maxDiffCost)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		// Keep only the diagonals step d can look back on: -d-1..d+1.
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < mm && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= mm {
				return backtrack(trace, a, b, d)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []uint64, d int) [][2]int {
	var pairs [][2]int
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v, base := trace[d], d+1 // v[base+k] is diagonal k after step d-1
		k := x - y
		var pk int
		if k == -d || (k != d && v[base+k-1] < v[base+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[base+pk]
		py := px - pk
		for x > px && y > py && x > 0 && y > 0 {
			x, y = x-1, y-1
			pairs = append(pairs, [2]int{x, y})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		pairs = append(pairs, [2]int{x, y})
	}
	return pairs
}

// Rebase renumbers a stale section's ops from the version they were made on
// to the current one, through m = LineMap(old, cur). It refuses when a line
// an op stands on changed, or a replaced range is no longer one run; it
// returns those old lines.
func Rebase(ops []Op, m []int) ([]Op, []int) {
	var changed []int
	out := make([]Op, len(ops))
	for i, o := range ops {
		out[i] = o
		a, b := o.Anchors()
		if b < a {
			continue
		}
		bad := false
		for ln := a; ln <= b; ln++ {
			if ln > len(m) || m[ln-1] == 0 || (ln > a && m[ln-1] != m[ln-2]+1) {
				changed = append(changed, ln)
				bad = true
			}
		}
		if !bad {
			out[i].A, out[i].B = m[a-1], m[b-1]
		}
	}
	return out, changed
}

// ApplyHashes is what a section's ops make of a version's line hashes: the
// check that a retried edit is already in the file (S8.2).
func ApplyHashes(ops []Op, old []uint64, hash func(string) uint64) ([]uint64, error) {
	a, err := ApplyRuns(ops, len(old))
	if err != nil {
		return nil, err
	}
	out := make([]uint64, 0, a.Lines)
	for _, pc := range a.Pieces {
		if pc.Old > 0 {
			out = append(out, old[pc.Old-1:pc.Old-1+pc.lines()]...)
		} else {
			out = append(out, hash(pc.Text))
		}
	}
	return out, nil
}

func spellLines(ls []int) string {
	var rs []Range
	for _, l := range ls {
		if k := len(rs) - 1; k >= 0 && rs[k].To+1 == l {
			rs[k].To = l
			continue
		}
		rs = append(rs, Range{l, l})
	}
	s := SpellRanges(rs)
	if len(ls) == 1 {
		return fmt.Sprintf("line %s", s)
	}
	return fmt.Sprintf("lines %s", s)
}
