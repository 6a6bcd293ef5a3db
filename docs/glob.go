package docs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// GlobArgs are the glob tool's arguments.
type GlobArgs struct {
	Pattern  string `json:"pattern"`         // doublestar, under path; without '/' it matches names at any depth
	Path     string `json:"path,omitempty"`  // the directory to walk; default the root
	Limit    int    `json:"limit,omitempty"` // paths a page, at most 200 (the default)
	Skip     int    `json:"skip,omitempty"`  // paths skipped (a continuation)
	NoIgnore bool   `json:"noIgnore,omitempty"`
}

// GlobLimit is the largest and default page of glob.
const GlobLimit = 200

// GlobItem is one matched path and its modification time.
type GlobItem struct {
	Path  string
	MTime time.Time
}

// GlobPage decides glob's page (glob_events_answer): each path once at its
// newest time, newest first then by path, at most 200 a page (the limit
// asked, default 200), the skip asked, and the count past it.
func GlobPage(items []GlobItem, skip, limit int) ([]GlobItem, Window) {
	if limit <= 0 || limit > GlobLimit {
		limit = GlobLimit
	}
	newest := make(map[string]time.Time, len(items))
	for _, it := range items {
		if t, ok := newest[it.Path]; !ok || it.MTime.After(t) {
			newest[it.Path] = it.MTime
		}
	}
	uniq := make([]GlobItem, 0, len(newest))
	for p, t := range newest {
		uniq = append(uniq, GlobItem{p, t})
	}
	slices.SortFunc(uniq, func(a, b GlobItem) int {
		if c := b.MTime.Compare(a.MTime); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	w := PageWindow(len(uniq), skip, limit)
	return uniq[w.From:w.To], w
}

// Glob is the glob tool (S8.9): matching files, newest first.
// A cancelled call stops its walk at the next file (cancel.go).
func (t *Tools) Glob(ctx context.Context, a GlobArgs) Result {
	if a.Pattern == "" {
		return failed("glob needs a pattern, like \"**/*_test.go\"")
	}
	if strings.Contains(a.Pattern, "://") || strings.Contains(a.Path, "://") {
		return failed("glob walks workspace directories and takes no URL (scheme://); read a URL instead")
	}
	if a.Skip < 0 || a.Limit < 0 {
		return failed("glob: limit and skip must be 0 or more")
	}
	f, err := newPathFilter(a.Pattern)
	if err != nil || f.negate {
		return failed("glob: %q is not a valid pattern (doublestar: *, **, ?, [abc], {a,b})", a.Pattern)
	}
	name := a.Path
	if name == "" {
		name = "."
	}
	root, err := t.allow(ctx, t.Abs(name), SearchAccess)
	if err != nil {
		return refused("", err)
	}
	if done(ctx) {
		return cancelled("glob", t.Display(root), "nothing was walked")
	}
	st, err := t.Store.Stat(root)
	switch {
	case err != nil:
		return failed("[%s cannot be read: %v]", t.Display(root), err)
	case !st.Exists || !st.Dir:
		return failed("glob: %s is not a directory; give the directory to walk as path", t.Display(root))
	}
	var mu sync.Mutex
	var items []GlobItem
	src, err := openBelow(t.Store, root, t.Guard != nil)
	if err != nil {
		return failed("[%s became a symbolic link after the gate judged it; nothing was listed: glob again]", t.Display(root))
	}
	defer src.close()
	tally := t.walkBelow(ctx, src, root, a.NoIgnore, "glob", fmt.Sprintf("glob %s in %s", a.Pattern, t.Display(root)), func(abs, rel, shown string) WalkClass {
		if !f.match(rel) {
			return Filtered
		}
		st, err := src.stat(abs, rel)
		if errors.Is(err, ErrLinkBelow) {
			return Symlink
		}
		if err != nil || !st.Exists {
			return WalkError
		}
		mu.Lock()
		items = append(items, GlobItem{Path: shown, MTime: st.MTime})
		mu.Unlock()
		return Searched
	})
	if tally.Stopped {
		return walkCancelled("glob", t.Display(root), tally, len(items), "match")
	}
	page, w := GlobPage(items, a.Skip, a.Limit)
	var b strings.Builder
	for _, it := range page {
		b.WriteString(it.Path + "\n")
	}
	total := w.Total
	switch {
	case total == 0:
		fmt.Fprintf(&b, "[no files match %s under %s]\n", a.Pattern, t.Display(root))
	default:
		verb := "match"
		if total == 1 {
			verb = "matches"
		}
		fmt.Fprintf(&b, "[%s %s %s under %s, newest first]\n", Count(total, "file"), verb, a.Pattern, t.Display(root))
	}
	if n := pageNotice(w, "path", "glob"); n != "" {
		b.WriteString(n + "\n")
	}
	for _, n := range tally.Notices() {
		b.WriteString(n + "\n")
	}
	return Result{Text: b.String()}
}
