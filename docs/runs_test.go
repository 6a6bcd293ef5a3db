package docs_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// ApplyRuns is ApplyOps with a piece a kept run: the same lines, the same
// map and written lines, and Persist of its pieces the same bytes as of
// ApplyOps's (which the S8.6 laws test line by line).
func TestApplyRuns_is_ApplyOps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genFile(t, "file", true, 30)
		p := docs.Scan(b)
		ops := genOps(t, len(p.Lines), rapid.IntRange(0, 5).Draw(t, "valid") > 0, 5)
		lines, err1 := docs.ApplyOps(ops, len(p.Lines))
		runs, err2 := docs.ApplyRuns(ops, len(p.Lines))
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("ApplyOps error %v, ApplyRuns error %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		var expanded []docs.Piece
		for _, pc := range runs.Pieces {
			if pc.Old == 0 {
				expanded = append(expanded, pc)
				continue
			}
			if pc.N < 1 {
				t.Fatalf("a kept run of %d lines: %+v", pc.N, pc)
			}
			for k := range pc.N {
				expanded = append(expanded, docs.Piece{Old: pc.Old + k})
			}
		}
		if !slices.Equal(expanded, lines.Pieces) {
			t.Fatalf("runs %+v expand to %+v, want %+v", runs.Pieces, expanded, lines.Pieces)
		}
		for i := 1; i < len(runs.Pieces); i++ {
			if a, b := runs.Pieces[i-1], runs.Pieces[i]; a.Old > 0 && b.Old == a.Old+a.N {
				t.Fatalf("two runs side by side: %+v %+v", a, b)
			}
		}
		if !slices.Equal(runs.Map, lines.Map) || runs.Lines != len(lines.Pieces) || !slices.Equal(lineSetOf(&runs.Written), lineSetOf(&lines.Written)) {
			t.Fatalf("map, count or written lines differ:\n%+v\n%+v", runs, lines)
		}
		if got, want := docs.Persist(p, runs.Pieces), docs.Persist(p, lines.Pieces); !bytes.Equal(got, want) {
			t.Fatalf("Persist of runs %q, of lines %q", got, want)
		}
	})
}
