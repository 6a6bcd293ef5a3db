package docs

import (
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// An edit's plan names each file once: the files and move destinations
// it plans are all different, it stops exactly at the first section that
// names a file already named (by any spelling) or a URL, and it plans
// every section before that one, in order.
func TestLaw_edit_plan_names_each_file_once(t *testing.T) {
	tools := &Tools{Root: "/r"}
	rapid.Check(t, func(rt *rapid.T) {
		names := []string{"a", "./a", "/r/a", "b", "d/../b", "/o/c", "https://x/y"}
		n := rapid.IntRange(0, 5).Draw(rt, "sections")
		var secs []Section
		for i := range n {
			sec := Section{Path: rapid.SampledFrom(names).Draw(rt, "path"), At: i + 1}
			if rapid.Bool().Draw(rt, "move") {
				sec.Move = rapid.SampledFrom(names).Draw(rt, "to")
			}
			secs = append(secs, sec)
		}
		planned, err := planEdit(secs, tools.Abs, tools.Display)

		// The first section that is bad, by the rule said plainly.
		stop := len(secs)
		seen := map[string]bool{}
	outer:
		for i, sec := range secs {
			for _, p := range []string{sec.Path, sec.Move} {
				if IsURL(p) {
					stop = i
					break outer
				}
			}
			for _, p := range []string{sec.Path, sec.Move} {
				if p == "" {
					continue
				}
				abs := filepath.Join("/r", p)
				if filepath.IsAbs(p) {
					abs = filepath.Clean(p)
				}
				if seen[abs] {
					stop = i
					break outer
				}
				seen[abs] = true
			}
		}
		if (err != nil) != (stop < len(secs)) {
			rt.Fatalf("plan error %v, first bad section %d of %d", err, stop, len(secs))
		}
		if len(planned) != stop {
			rt.Fatalf("planned %d sections, want the %d before the first bad one", len(planned), stop)
		}
		files := map[string]bool{}
		for i, s := range planned {
			if s.sec.At != secs[i].At {
				rt.Fatalf("section %d planned out of order", i)
			}
			for _, p := range []string{s.abs, s.dest} {
				if p == "" {
					continue
				}
				if files[p] {
					rt.Fatalf("%s planned twice", p)
				}
				files[p] = true
			}
		}
	})
}
