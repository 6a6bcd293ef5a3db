package docs

// LineSet against a map model: Has, Len and Each after random AddRange,
// in runs mode and after the switch to bitset mode. (In package docs to
// see which mode a set is in.)

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestLineSet_against_a_map(t *testing.T) {
	bitsetChecks := 0
	rapid.Check(t, func(t *rapid.T) {
		var s LineSet
		model := map[int]bool{}
		hi := rapid.SampledFrom([]int{20, 300, 3000}).Draw(t, "hi")
		scattered := rapid.Bool().Draw(t, "scattered")
		adds := rapid.IntRange(0, 80).Draw(t, "adds")
		if scattered {
			// Many short runs far apart: past a few dozen, a bitset is
			// cheaper than the runs.
			hi = rapid.SampledFrom([]int{300, 1000}).Draw(t, "scatteredHi")
			adds = rapid.IntRange(40, 150).Draw(t, "scatteredAdds")
		}
		spread := rapid.IntRange(0, hi).Draw(t, "spread")
		for i := range adds {
			a := rapid.IntRange(-2, hi).Draw(t, fmt.Sprintf("add%d/a", i))
			if scattered {
				a = 1 + (i*7919+spread)%hi // far apart, whatever rapid draws
			}
			b := a + rapid.IntRange(-3, 70).Draw(t, fmt.Sprintf("add%d/len", i))
			if scattered && rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("add%d/longInBits", i)) != 9 {
				b = a + rapid.IntRange(-1, 1).Draw(t, fmt.Sprintf("add%d/short", i))
			} else if scattered {
				// Now and then a long run, once in bitset mode: whole
				// words at a time, ending right at a word's edge or not.
				b = (a/64+rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("add%d/words", i)))*64 + rapid.IntRange(-1, 1).Draw(t, fmt.Sprintf("add%d/edge", i))
			}
			s.AddRange(a, b)
			for l := max(a, 1); l <= b; l++ {
				model[l] = true
			}
			checkLineSet(t, &s, model, hi+80)
		}
		if s.bits != nil {
			bitsetChecks++
		}
	})
	if bitsetChecks == 0 {
		t.Fatalf("no check reached bitset mode")
	}
}

func checkLineSet(t *rapid.T, s *LineSet, model map[int]bool, top int) {
	if s.Len() != len(model) {
		t.Fatalf("Len %d, want %d", s.Len(), len(model))
	}
	for l := -1; l <= top; l++ {
		if s.Has(l) != model[l] {
			t.Fatalf("Has(%d) = %v, want %v (bits mode %v)", l, s.Has(l), model[l], s.bits != nil)
		}
	}
	var runs [][2]int
	s.Each(func(a, b int) { runs = append(runs, [2]int{a, b}) })
	var want [][2]int
	lines := make([]int, 0, len(model))
	for l := range model {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	for _, l := range lines {
		if k := len(want) - 1; k >= 0 && want[k][1] == l-1 {
			want[k][1] = l
		} else {
			want = append(want, [2]int{l, l})
		}
	}
	if !slices.Equal(runs, want) {
		t.Fatalf("Each gives %v, want %v (bits mode %v)", runs, want, s.bits != nil)
	}
}

// A scattered set switches to a bitset, and keeps its lines.
func TestLineSet_switches_to_bits(t *testing.T) {
	var s LineSet
	model := map[int]bool{}
	for l := 1; l <= 2000; l += 2 {
		s.Add(l)
		model[l] = true
	}
	if s.bits == nil {
		t.Fatalf("1000 scattered lines are still %d runs", len(s.runs))
	}
	if s.Len() != len(model) {
		t.Fatalf("Len %d, want %d", s.Len(), len(model))
	}
	for l := 0; l <= 2002; l++ {
		if s.Has(l) != model[l] {
			t.Fatalf("Has(%d) = %v", l, s.Has(l))
		}
	}
}
