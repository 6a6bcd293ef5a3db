package docs

import "math/bits"

// LineSet is a set of 1-based line numbers, kept as sorted disjoint runs
// while that is small, and as a bitset once runs would cost more than one
// bit a line. A whole read of a 100,000-line file is one run (8 bytes);
// a scattered one is at most 12.5 KB.
type LineSet struct {
	runs []lineSpan // sorted, disjoint, not adjacent; nil once bits is set
	bits []uint64   // bit i-1 is line i
}

type lineSpan struct{ lo, hi uint32 } // inclusive

// Has tells whether line n is in the set.
func (s *LineSet) Has(n int) bool {
	if s == nil || n < 1 {
		return false
	}
	if s.bits != nil {
		i := n - 1
		return i/64 < len(s.bits) && s.bits[i/64]&(1<<(i%64)) != 0
	}
	lo, hi := 0, len(s.runs)
	for lo < hi {
		m := (lo + hi) / 2
		switch r := s.runs[m]; {
		case uint32(n) < r.lo:
			hi = m
		case uint32(n) > r.hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// AddRange adds lines a..b (inclusive); nothing when b < a.
func (s *LineSet) AddRange(a, b int) {
	if a < 1 {
		a = 1
	}
	if b < a {
		return
	}
	if s.bits != nil {
		s.setBits(a, b)
		return
	}
	r := lineSpan{uint32(a), uint32(b)}
	// The common case, lines added in order: extend or follow the last run.
	if k := len(s.runs) - 1; k < 0 || s.runs[k].hi+1 < r.lo {
		s.runs = append(s.runs, r)
		s.maybeBits()
		return
	} else if s.runs[k].lo <= r.lo {
		s.runs[k].hi = max(s.runs[k].hi, r.hi)
		return
	}
	// Find the first run that ends at or after a-1 (may merge).
	i := 0
	for i < len(s.runs) && s.runs[i].hi+1 < r.lo {
		i++
	}
	j := i
	for j < len(s.runs) && s.runs[j].lo <= r.hi+1 {
		r.lo = min(r.lo, s.runs[j].lo)
		r.hi = max(r.hi, s.runs[j].hi)
		j++
	}
	s.runs = append(s.runs[:i], append([]lineSpan{r}, s.runs[j:]...)...)
	s.maybeBits()
}

// maybeBits switches to a bitset once runs cost more than one bit a line.
func (s *LineSet) maybeBits() {
	if last := int(s.runs[len(s.runs)-1].hi); len(s.runs)*8 > (last+63)/64*8+64 {
		s.toBits(last)
	}
}

// Add adds one line.
func (s *LineSet) Add(n int) { s.AddRange(n, n) }

func (s *LineSet) toBits(last int) {
	runs := s.runs
	s.runs = nil
	s.bits = make([]uint64, (last+63)/64)
	for _, r := range runs {
		s.setBits(int(r.lo), int(r.hi))
	}
}

func (s *LineSet) setBits(a, b int) {
	if need := (b + 63) / 64; need > len(s.bits) {
		s.bits = append(s.bits, make([]uint64, need-len(s.bits))...)
	}
	for i := a - 1; i < b; i++ {
		if i%64 == 0 && i+64 <= b {
			s.bits[i/64] = ^uint64(0)
			i += 63
			continue
		}
		s.bits[i/64] |= 1 << (i % 64)
	}
}

// Len counts the lines in the set.
func (s *LineSet) Len() int {
	if s == nil {
		return 0
	}
	if s.bits != nil {
		c := 0
		for _, w := range s.bits {
			c += bits.OnesCount64(w)
		}
		return c
	}
	c := 0
	for _, r := range s.runs {
		c += int(r.hi-r.lo) + 1
	}
	return c
}

// Each calls f with each run of consecutive lines, in order.
func (s *LineSet) Each(f func(a, b int)) {
	if s == nil {
		return
	}
	if s.bits == nil {
		for _, r := range s.runs {
			f(int(r.lo), int(r.hi))
		}
		return
	}
	start := 0
	for i := 0; i <= len(s.bits)*64; i++ {
		in := i < len(s.bits)*64 && s.bits[i/64]&(1<<(i%64)) != 0
		switch {
		case in && start == 0:
			start = i + 1
		case !in && start != 0:
			f(start, i)
			start = 0
		}
	}
}

// Bytes is the memory the set holds for its lines.
func (s *LineSet) Bytes() int {
	if s == nil {
		return 0
	}
	return cap(s.runs)*8 + cap(s.bits)*8
}
