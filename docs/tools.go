package docs

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Tools are the document tools of one session over one Store: the thin
// edge where paths become snapshots and verdicts become commits.
type Tools struct {
	Store   Store
	Session *Session
	Root    string    // the workspace root; relative paths are under it
	Bound   int       // the read output bound; 0 is DefaultReadBound
	Guard   PathGuard // the documents gate (G1.6, G1.7); nil judges nothing
	// Home is where a leading "~" of a path points (ExpandTilde); "" leaves
	// "~" and "~/x" as written.
	Home string
	// Excludes are the grep.excludes setting: doublestar patterns over
	// paths under the root (a name alone without '/') that grep and glob
	// skip; nil skips nothing.
	Excludes func() []string
	// ProgressEvery is how often a long grep or glob tells the call's
	// progress sink (WithProgress) how far its walk got (0:
	// DefaultProgressEvery). A sink must not call back into these Tools.
	ProgressEvery time.Duration
}

// allow asks the documents gate about one access of abs, once, as given:
// it gives the real path the access then uses (G1.6).
func (t *Tools) allow(ctx context.Context, abs string, a Access) (string, error) {
	if t.Guard == nil {
		return abs, nil
	}
	return t.Guard.Allow(ctx, abs, a)
}

// still is the writer's re-resolution under its lock (G1.7): abs must
// still resolve to the real path the gate judged.
func (t *Tools) still(abs, real string) func() error {
	if t.Guard == nil {
		return nil
	}
	return func() error {
		if !t.Guard.SameReal(abs, real) {
			return fmt.Errorf("%s resolves to another file than the one the gate judged (a link changed); read it again", t.Display(abs))
		}
		return nil
	}
}

// named splits a path argument that may carry a selector: the whole
// argument when it names something, else path and ranges ("a.go:5-9").
func (t *Tools) named(arg string) (string, []Range) {
	p, rs, ok := SplitSelector(arg)
	if !ok {
		return arg, nil // no selector to split: nothing to stat
	}
	if st, err := t.Store.Stat(t.Abs(arg)); err == nil && !st.Exists {
		return p, rs
	}
	return arg, nil
}

// Abs resolves a path the model named: a leading tilde expanded as the
// shell does, then absolute paths as they are, relative ones under the
// root.
func (t *Tools) Abs(p string) string {
	p = ExpandTilde(p, t.Home, t.Root, LookupHome)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(t.Root, p)
}

// IsURL tells whether a tool path is a URL (scheme://…), which only read
// takes: a file path never starts with a scheme and "://".
func IsURL(p string) bool {
	i := strings.Index(p, "://")
	if i <= 0 {
		return false
	}
	for j, c := range p[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// Display names an absolute path for the model: relative to the root when
// under it (on Windows too, where Rel gives "..\x" for a path outside).
func (t *Tools) Display(abs string) string {
	if rel, err := filepath.Rel(t.Root, abs); err == nil && relUnder(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// ReadArgs are the read tool's arguments: a path with an optional selector
// ("src/a.go:5-9,40-60"), and raw for text without row numbers.
type ReadArgs struct {
	Path string `json:"path"`
	Raw  bool   `json:"raw,omitempty"`
}

// Read is the read tool (S8.6, S8.8, S8.10). A call cancelled before the
// file is read reads nothing (cancel.go).
func (t *Tools) Read(ctx context.Context, a ReadArgs) Result {
	if strings.TrimSpace(a.Path) == "" {
		return failed("read needs a path: {\"path\": \"src/app.go\"}, or a selector like \"src/app.go:5-9\"")
	}
	name, ranges := t.named(a.Path)
	abs := t.Abs(name)
	shown := t.Display(abs)
	real, err := t.allow(ctx, abs, ReadAccess)
	if err != nil {
		return refused("", err)
	}
	if ctx.Err() != nil {
		return cancelled("read", shown, "nothing was read")
	}
	snap, err := t.readReal(real)
	defer snap.Release()
	switch {
	case err != nil:
		return failed("[%s cannot be read: %v]", shown, err)
	case !snap.Stat.Exists:
		return failed("%s", t.missingText(a.Path, abs, shown))
	case snap.Stat.Dir:
		return t.list(real, shown)
	}
	p := Scan(snap.Data)
	var notices []string
	if ranges != nil {
		merged, past := MergeRanges(ranges, len(p.Lines))
		if len(past) > 0 {
			notices = append(notices, fmt.Sprintf("[%s has %s: %s past the end]", shown, Count(len(p.Lines), "line"), spellRangesPlain(past)))
		}
		if len(merged) == 0 {
			return Result{Text: Header(shown, "", false) + strings.Join(notices, "\n") + "\n"}
		}
		ranges = merged
	}
	req := ViewRequest{Path: shown, P: p, Ranges: ranges, Bound: t.Bound, Notices: notices}
	if a.Raw {
		// The session saw these bytes, so write may replace them (S8.3),
		// even when they are not UTF-8; raw rows are not anchors, so no
		// line counts as seen.
		lines := p
		if len(snap.Data) > MaxSnapshotFileBytes {
			lines = Projection{}
		}
		t.Session.Saw(abs, lines, DigestOf(snap.Data))
		if note := BinaryNote(shown, snap.Data); note != "" {
			return failed("%s", note)
		}
		req.Raw = true
		view := Render(req)
		return Result{Text: view.Text, Whole: Whole(req, view)}
	}
	if gate := ReadGate(shown, snap.Data); gate != "" {
		return failed("%s", gate)
	}
	d := DigestOf(snap.Data)
	if len(snap.Data) > MaxSnapshotFileBytes {
		over := fmt.Sprintf("[%s is %.1f MiB, over the 4 MiB limit: it has no tag, and its rows are not edit anchors. Read it in ranges (%s:1-400) and change it with write or bash.]",
			shown, float64(len(snap.Data))/(1<<20), shown)
		if ranges == nil {
			return failed("%s\n[%s in all]", over, Count(len(p.Lines), "line"))
		}
		t.Session.Saw(abs, Projection{}, d) // a write may replace what was read
		req.Notices = append([]string{over}, req.Notices...)
		view := Render(req)
		return Result{Text: view.Text, Whole: Whole(req, view)}
	}
	req.Tag = d.Tag().String()
	v := t.Session.Saw(abs, p, d)
	view := Render(req)
	view.Shown.Each(v.Seen.AddRange)
	return Result{Text: view.Text, Whole: Whole(req, view)}
}

func spellRangesPlain(rs []Range) string {
	var parts []string
	for _, r := range rs {
		if r.To == 0 {
			parts = append(parts, fmt.Sprintf("%d-", r.From))
		} else {
			parts = append(parts, SpellRanges([]Range{r}))
		}
	}
	return strings.Join(parts, ",")
}

// maxListed bounds a directory read.
const maxListed = 2000

// list is a directory read: its entries, directories with a trailing '/',
// temporary files hidden.
func (t *Tools) list(abs, shown string) Result {
	es, err := t.listReal(abs)
	if err != nil {
		return failed("[%s cannot be listed: %v]", shown, err)
	}
	var b strings.Builder
	var kept []Entry
	for _, e := range es {
		if !IsTemp(e.Name) {
			kept = append(kept, e)
		}
	}
	fmt.Fprintf(&b, "[%s/ directory: %s]\n", strings.TrimSuffix(shown, "/"), Count(len(kept), "entry"))
	for i, e := range kept {
		if i == maxListed {
			fmt.Fprintf(&b, "[%s more not shown; use glob to narrow]\n", Count(len(kept)-maxListed, "entry"))
			break
		}
		b.WriteString(e.Name)
		if e.Dir {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	return Result{Text: b.String()}
}
