package docs

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestLaw_session_memory_follows_its_work: however many files a session
// sees, the line hashes it holds stay within LinesKept (plus the one
// version just seen, when that alone is larger); the count it keeps is
// the true sum; the file just seen is always known; and a forgotten file
// is one seen less recently than every file kept.
func TestLaw_session_memory_follows_its_work(t *testing.T) {
	saved := LinesKept
	defer func() { LinesKept = saved }()
	rapid.Check(t, func(t *rapid.T) {
		LinesKept = rapid.IntRange(10, 400).Draw(t, "budget")
		s := NewSession()
		last := map[string]int{}
		steps := rapid.IntRange(1, 200).Draw(t, "steps")
		for step := range steps {
			path := fmt.Sprintf("/w/f%d", rapid.IntRange(0, 30).Draw(t, "file"))
			n := rapid.IntRange(0, 120).Draw(t, "lines")
			d := Digest(rapid.IntRange(0, 12).Draw(t, "version"))
			v := s.SawWith(path, d, func() []uint64 { return make([]uint64, n) })
			last[path] = step
			if s.Knows(path, d) != v {
				t.Fatalf("the version just seen of %s is not known", path)
			}
			sum := 0
			for _, vs := range s.Files {
				for _, v := range vs {
					sum += len(v.Lines)
				}
			}
			if sum != s.HeldLines() {
				t.Fatalf("holds %d line hashes, counts %d", sum, s.HeldLines())
			}
			if sum > LinesKept && sum > totalOf(s.Files[path]) {
				t.Fatalf("holds %d line hashes over the bound %d", sum, LinesKept)
			}
			oldestKept := step
			for p := range s.Files {
				oldestKept = min(oldestKept, last[p])
			}
			for p, at := range last {
				if _, ok := s.Files[p]; !ok && at > oldestKept {
					t.Fatalf("%s (seen at %d) was forgotten while one seen at %d is kept", p, at, oldestKept)
				}
			}
		}
	})
}

func totalOf(vs []*Version) int {
	n := 0
	for _, v := range vs {
		n += len(v.Lines)
	}
	return n
}
