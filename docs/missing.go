package docs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// A path that names nothing gets a next step (missingHint): a selector
// that does not parse is named with what is wrong with it (`app.go:9-5`
// read as a file name said only "no such file"), a near name in the same
// workspace directory is offered, and otherwise a glob that finds the
// name anywhere in the workspace.

// missingText is the refusal of a path that names nothing.
func (t *Tools) missingText(arg, abs, shown string) string {
	if i := strings.LastIndexByte(arg, ':'); i > 0 && i < len(arg)-1 {
		if st, err := t.Store.Stat(t.Abs(arg[:i])); err == nil && st.Exists && !st.Dir {
			if _, err := ParseSelector(arg[i+1:]); err != nil {
				return fmt.Sprintf("[%s exists, and its %v]", t.Display(t.Abs(arg[:i])), err)
			}
		}
	}
	return fmt.Sprintf("[%s: no such file or directory%s]", shown, t.missingHint(abs))
}

// missingHint is "; …" with the next step, or "".
func (t *Tools) missingHint(abs string) string {
	dir, name := filepath.Dir(abs), filepath.Base(abs)
	if !t.inRoot(dir) {
		return ""
	}
	if es, err := t.listReal(dir); err == nil {
		type cand struct {
			name string
			d    int
		}
		var cs []cand
		for _, e := range es {
			if d, ok := nearName(name, e.Name); ok {
				cs = append(cs, cand{e.Name, d})
			}
		}
		slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
		var near []string
		for _, c := range cs[:min(3, len(cs))] {
			near = append(near, t.Display(filepath.Join(dir, c.name)))
		}
		if len(near) > 0 {
			return "; did you mean " + strings.Join(near, " or ") + "?"
		}
	}
	return fmt.Sprintf(`; glob {"pattern": "**/%s"} finds that name anywhere in the workspace`, name)
}

// inRoot tells whether abs is the workspace root or below it.
func (t *Tools) inRoot(abs string) bool {
	rel, err := filepath.Rel(t.Root, abs)
	return t.Root != "" && err == nil && relUnder(rel)
}

// relUnder tells whether rel, a filepath.Rel result, stays at or below
// its base: not "..", nor "../x" ("..\x" on Windows).
func relUnder(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// nearName tells whether have is a likely meaning of want, and how near
// (0 nearest): the same name in another case, the same stem with another
// extension, or a name a slip or two away (at most one edit in four
// letters).
func nearName(want, have string) (int, bool) {
	if want == have {
		return 0, false
	}
	lw, lh := strings.ToLower(want), strings.ToLower(have)
	if lw == lh {
		return 0, true
	}
	stem := func(s string) string { return strings.TrimSuffix(s, filepath.Ext(s)) }
	if stem(lw) != "" && stem(lw) == stem(lh) {
		return 1, true
	}
	limit := max(1, len([]rune(lw))/4)
	d := editDistance(lw, lh, limit)
	return 1 + d, d <= limit
}

// editDistance is the Levenshtein distance of a and b, or limit+1 when it
// is over limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
