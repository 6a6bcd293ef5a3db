package docs

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// GrepArgs are the grep tool's arguments.
type GrepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"` // a file (with an optional line range), a directory; default the root
	Glob       string `json:"glob,omitempty"` // only files whose path (or, without '/', name) matches; "!pat" leaves them out
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
	Literal    bool   `json:"literal,omitempty"`
	Context    int    `json:"context,omitempty"` // lines shown around each match
	Skip       int    `json:"skip,omitempty"`    // files with matches skipped (a continuation)
	NoIgnore   bool   `json:"noIgnore,omitempty"`
}

// binaryBlock is how much of a file's start decides whether it is binary.
const binaryBlock = 8 << 10

// fileHit is one file with matches: what a page shows of it.
type fileHit struct {
	abs, shown string
	matches    int    // all matches in the file
	kept       int    // matches shown
	lastKept   int    // the line of the last match shown
	text       string // its rows, rendered as read renders them
	tagged     bool
	digest     Digest
	hashes     []uint64
	seen       LineSet
	part       bool
}

// Grep is the grep tool (S8.7, S8.9). A cancelled call stops its walk at
// the next file and says how far it got (cancel.go).
func (t *Tools) Grep(ctx context.Context, a GrepArgs) Result {
	m, err := NewLineMatcher(a.Pattern, a.Literal, a.IgnoreCase)
	if err != nil {
		return failed("grep: %v", err)
	}
	if strings.Contains(a.Path, "://") {
		return failed("grep searches files of the workspace; %s is a URL: read it instead", a.Path)
	}
	if a.Context < 0 || a.Skip < 0 {
		return failed("grep: context and skip must be 0 or more")
	}
	glob, err := newPathFilter(a.Glob)
	if err != nil {
		return failed("grep: %v", err)
	}
	name := a.Path
	if name == "" {
		name = "."
	}
	name, ranges := t.named(name)
	abs := t.Abs(name)
	shown := t.Display(abs)
	real, err := t.allow(ctx, abs, SearchAccess)
	if err != nil {
		return refused("", err)
	}
	if done(ctx) {
		return cancelled("grep", shown, "nothing was searched")
	}
	if st, err := t.Store.Stat(real); err == nil && st.Exists && !st.Dir && st.Size > MaxSnapshotFileBytes {
		// said before its bytes are read: a 50 MB file is not read to be refused
		return failed("[%s is over the 4 MiB limit: grep it with bash (rg -n PATTERN %s)]", shown, shown)
	}
	snap, err := t.readReal(real)
	switch {
	case err != nil:
		return failed("[%s cannot be read: %v]", shown, err)
	case !snap.Stat.Exists:
		return failed("%s", t.missingText(name, abs, shown))
	case snap.Stat.Dir:
		if ranges != nil {
			return failed("grep: a line range needs a file; %s is a directory", shown)
		}
		res, _ := t.grepTree(ctx, m, real, a, glob)
		return res
	}
	defer snap.Release()
	return t.grepFile(m, abs, shown, snap.Data, ranges, a.Context)
}

// grepFile searches one file: up to 200 matches, no skip; a line range
// continues it.
func (t *Tools) grepFile(m *LineMatcher, abs, shown string, src []byte, ranges []Range, context int) Result {
	if len(src) > MaxSnapshotFileBytes {
		return failed("[%s is over the 4 MiB limit: grep it with bash (rg -n PATTERN %s)]", shown, shown)
	}
	if gate := ReadGate(shown, src); gate != "" {
		return failed("%s", gate)
	}
	sc := SearchScope(1, false, 0)
	p := Scan(src)
	var in func(int) bool
	if ranges != nil {
		merged, _ := MergeRanges(ranges, len(p.Lines))
		var set LineSet
		for _, r := range merged {
			set.AddRange(r.From, r.To)
		}
		in = set.Has
	}
	hit := collectHit(m, src, sc.PerFile, context, in)
	if hit.matches == 0 {
		return Result{Text: fmt.Sprintf("[no matches in %s]\n", shown)}
	}
	d := DigestOf(src)
	text := renderHit(&hit, shown, p, d.Tag().String(), context, DefaultReadBound)
	v := t.Session.Saw(abs, p, d)
	hit.seen.Each(v.Seen.AddRange)
	if hit.matches > hit.kept {
		text += fmt.Sprintf("[%d of %d matches shown; grep %s:%d- for the next]\n", hit.kept, hit.matches, shown, hit.lastKept+1)
	}
	return Result{Text: text}
}

// collectHit finds a file's matching lines: all are counted, the first
// limit are kept (as lines of the hit's seen set, for now).
// Context past the last line is clipped when the hit is rendered, so a file
// without a match is never scanned into lines.
func collectHit(m *LineMatcher, src []byte, limit, context int, in func(int) bool) fileHit {
	var h fileHit
	m.Each(src, func(line int, _ []byte) bool {
		if in != nil && !in(line) {
			return true
		}
		h.matches++
		if h.kept < limit {
			h.kept++
			h.lastKept = line
			h.seen.AddRange(line-context, line+context)
		}
		return true
	})
	return h
}

// renderHit prints a hit's rows with read's own printer
// (grep_line_is_read_line), and keeps in h.seen only the rows that reached
// the caller.
func renderHit(h *fileHit, shown string, p Projection, tag string, context, bound int) string {
	var spans []Range
	h.seen.Each(func(a, b int) { spans = append(spans, Range{a, b}) })
	spans, _ = MergeRanges(spans, len(p.Lines))
	v := Render(ViewRequest{Path: shown, P: p, Tag: tag, Ranges: spans, Bound: bound, NoTail: true})
	h.seen = v.Shown
	return v.Text
}

// hitHeap keeps, of the hits seen so far, the ones first by path that can
// still be on the page; the rest keep only their counts.
type hitHeap []*fileHit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return h[i].shown > h[j].shown } // the last path on top
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(*fileHit)) }
func (h *hitHeap) Pop() any          { old := *h; x := old[len(old)-1]; *h = old[:len(old)-1]; return x }

// grepTree searches a directory: 20 matches a file, pages of 20 files,
// the skip asked; every file skipped or cut is noted.
func (t *Tools) grepTree(ctx context.Context, m *LineMatcher, root string, a GrepArgs, glob *pathFilter) (Result, *Tally) {
	sc := SearchScope(1, true, a.Skip)
	keep := sc.Skip + sc.Page
	var mu sync.Mutex
	var all []*fileHit // every file with matches: path and counts
	kept := &hitHeap{}
	src, err := openBelow(t.Store, root, t.Guard != nil)
	if err != nil {
		return failed("[%s became a symbolic link after the gate judged it; nothing was searched: search again]", t.Display(root)), nil
	}
	defer src.close()
	visit := func(abs, rel, shown string) WalkClass {
		if !glob.match(rel) {
			return Filtered
		}
		snap, err := src.read(abs, rel)
		if errors.Is(err, ErrLinkBelow) {
			return Symlink // made a link since it was listed: never followed
		}
		if errors.Is(err, ErrOverLimit) {
			return OverLimit
		}
		if err != nil {
			return Unreadable
		}
		defer snap.Release()
		if !snap.Stat.Exists {
			return WalkError
		}
		if snap.Stat.Links > 1 && t.Guard != nil && t.Guard.SecretName(abs) {
			return SecretName
		}
		class, src := classify(snap.Data)
		if class != Searched && class != Part {
			return class
		}
		h := collectHit(m, src, sc.PerFile, a.Context, nil)
		if h.matches == 0 {
			return class
		}
		p := Scan(src)
		h.abs, h.shown, h.part = abs, shown, class == Part
		mu.Lock()
		defer mu.Unlock()
		all = append(all, &h)
		if kept.Len() < keep || shown < (*kept)[0].shown {
			if !h.part {
				h.tagged, h.digest = true, DigestOf(snap.Data)
				h.hashes = LineHashes(p)
			}
			tag := ""
			if h.tagged {
				tag = h.digest.Tag().String()
			}
			h.text = renderHit(&h, shown, p, tag, a.Context, DefaultReadBound/8)
			heap.Push(kept, &h)
			if kept.Len() > keep {
				x := heap.Pop(kept).(*fileHit)
				x.text, x.hashes = "", nil
			}
		}
		return class
	}
	tally := t.walkBelow(ctx, src, root, a.NoIgnore, "grep", fmt.Sprintf("grep %s in %s", a.Pattern, t.Display(root)), visit)
	if tally.Stopped {
		return walkCancelled("grep", t.Display(root), tally, len(all), "file with matches"), tally
	}
	slices.SortFunc(all, func(x, y *fileHit) int { return strings.Compare(x.shown, y.shown) })
	w := PageWindow(len(all), sc.Skip, sc.Page)
	var b strings.Builder
	matches := 0
	for _, h := range all {
		matches += h.matches
	}
	for _, h := range all[w.From:w.To] {
		b.WriteString(h.text)
		if h.part {
			fmt.Fprintf(&b, "[%s: searched only up to its first NUL byte; these rows have no tag]\n", h.shown)
		}
		if h.matches > h.kept {
			fmt.Fprintf(&b, "[%s: %d of %d matches shown; grep path %s for the next]\n", h.shown, h.kept, h.matches, h.shown)
		}
		if h.tagged {
			hashes := h.hashes
			v := t.Session.SawWith(h.abs, h.digest, func() []uint64 { return hashes })
			h.seen.Each(v.Seen.AddRange)
		}
	}
	searched := tally.Count[Searched] + tally.Count[Part]
	if len(all) == 0 {
		fmt.Fprintf(&b, "[no matches in %s searched under %s]\n", Count(searched, "file"), t.Display(root))
	} else {
		fmt.Fprintf(&b, "[%s in %s; %s searched under %s]\n", Count(matches, "match"), Count(len(all), "file"), Count(searched, "file"), t.Display(root))
	}
	if n := pageNotice(w, "file with matches", "grep"); n != "" {
		b.WriteString(n + "\n")
	}
	for _, n := range tally.Notices() {
		b.WriteString(n + "\n")
	}
	return Result{Text: b.String()}, tally
}

// classify is how grep takes a file's bytes: its class, and the part of
// the bytes to search (all of them, or those before a late NUL byte).
func classify(src []byte) (WalkClass, []byte) {
	switch {
	case len(src) > MaxSnapshotFileBytes:
		return OverLimit, nil
	case bytes.IndexByte(src[:min(len(src), binaryBlock)], 0) >= 0:
		return Binary, nil
	}
	class := Searched
	if i := bytes.IndexByte(src, 0); i >= 0 {
		src, class = src[:i], Part
	}
	if Encoding(src) != "" {
		return OtherEncoding, nil
	}
	return class, src
}

// pathFilter is grep's glob argument: a doublestar pattern over the path
// under the search root, or over the name alone when it has no '/'; a
// leading '!' leaves the matches out.
type pathFilter struct {
	pattern string
	negate  bool
	name    bool
}

func newPathFilter(glob string) (*pathFilter, error) {
	if glob == "" {
		return nil, nil
	}
	f := &pathFilter{pattern: glob}
	if strings.HasPrefix(glob, "!") {
		f.pattern, f.negate = glob[1:], true
	}
	f.name = !strings.Contains(f.pattern, "/")
	if !doublestar.ValidatePattern(f.pattern) {
		return nil, fmt.Errorf("glob %q is not a valid pattern (doublestar: *, **, ?, [abc], {a,b})", glob)
	}
	return f, nil
}

func (f *pathFilter) match(rel string) bool {
	if f == nil {
		return true
	}
	s := rel
	if f.name {
		s = filepath.Base(rel)
	}
	ok, _ := doublestar.Match(f.pattern, s)
	return ok != f.negate
}
