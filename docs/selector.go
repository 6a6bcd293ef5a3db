package docs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Range is lines From..To, 1-based and inclusive; To == 0 reads to the end.
type Range struct{ From, To int }

// ParseSelector reads the part after a path's last ':' — "5-9", "5-9,40-60",
// "120-", "7".
func ParseSelector(s string) ([]Range, error) {
	if s == "" {
		return nil, fmt.Errorf("empty line selector: write path:5-9, path:5-9,40-60 or path:120-")
	}
	var rs []Range
	for part := range strings.SplitSeq(s, ",") {
		a, b, dash := strings.Cut(strings.TrimSpace(part), "-")
		from, err := strconv.Atoi(a)
		if err != nil || from < 1 {
			return nil, fmt.Errorf("line selector %q: %q is not a line number (lines count from 1); write path:5-9, path:5-9,40-60 or path:120-", s, a)
		}
		to := from
		if dash {
			to = 0
			if b != "" {
				if to, err = strconv.Atoi(b); err != nil || to < 1 {
					return nil, fmt.Errorf("line selector %q: range %s is not A-B with A <= B", s, part)
				}
				if to < from {
					return nil, fmt.Errorf("line selector %q: range %s goes backwards; write %d-%d", s, part, to, from)
				}
			}
		}
		rs = append(rs, Range{from, to})
	}
	return rs, nil
}

// SplitSelector splits "path:5-9" into path and ranges when the part after
// the last ':' is a selector. The caller decides whether a whole argument
// that names an existing file wins over the split (a file named "x:5").
func SplitSelector(arg string) (path string, rs []Range, ok bool) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 || i == len(arg)-1 {
		return arg, nil, false
	}
	for _, c := range arg[i+1:] {
		if !(c >= '0' && c <= '9' || c == '-' || c == ',' || c == ' ') {
			return arg, nil, false
		}
	}
	rs, err := ParseSelector(arg[i+1:])
	if err != nil {
		return arg, nil, false
	}
	return arg[:i], rs, true
}

// MergeRanges clamps ranges to a file of n lines, sorts them and merges the
// ones that overlap or touch (`:5-6,1-2` reads 1-2 then 5-6; `:1-5,3-8`
// reads 1-8). Ranges wholly past the end are dropped and reported.
func MergeRanges(rs []Range, n int) (merged []Range, past []Range) {
	var in []Range
	for _, r := range rs {
		to := r.To
		if to == 0 || to > n {
			to = n
		}
		if r.From > n {
			past = append(past, r)
			continue
		}
		in = append(in, Range{r.From, to})
	}
	slices.SortFunc(in, func(a, b Range) int { return a.From - b.From })
	for _, r := range in {
		if k := len(merged) - 1; k >= 0 && r.From <= merged[k].To+1 {
			merged[k].To = max(merged[k].To, r.To)
			continue
		}
		merged = append(merged, r)
	}
	return merged, past
}

// SpellRanges writes ranges back as a selector: "5-9,40".
func SpellRanges(rs []Range) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		if r.From == r.To {
			fmt.Fprintf(&b, "%d", r.From)
		} else {
			fmt.Fprintf(&b, "%d-%d", r.From, r.To)
		}
	}
	return b.String()
}
