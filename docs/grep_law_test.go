package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// countingStore counts every entry a walk lists, on the walk's tree (the
// openat2 walk production runs) or by path where the kernel has none, and
// the trees it opened.
type countingStore struct {
	Store
	mu     sync.Mutex
	listed int
	trees  int
}

func (c *countingStore) OpenTree(dir string, real bool) (Tree, error) {
	t, err := openWatched(c.Store, dir, real, watchedTree{listed: func(n int) {
		c.mu.Lock()
		c.listed += n
		c.mu.Unlock()
	}})
	if err == nil {
		c.mu.Lock()
		c.trees++
		c.mu.Unlock()
	}
	return t, err
}

func (c *countingStore) List(dir string) ([]Entry, error) {
	es, err := c.Store.List(dir)
	c.mu.Lock()
	c.listed += len(es)
	c.mu.Unlock()
	return es, err
}

// classTree writes a random tree with an entry of every class a grep walk
// can put it in; it returns how many of each it wrote.
func classTree(t *rapid.T, root string) {
	mustMkdir(t, filepath.Join(root, ".git"))
	mustWrite(t, filepath.Join(root, ".gitignore"), "ignored*\n")
	kinds := []string{"text", "match", "binary", "part", "latin1", "utf16", "ignored", "temp", "symlink", "dir", "crlf"}
	for i := range rapid.IntRange(1, 25).Draw(t, "entries") {
		kind := rapid.SampledFrom(kinds).Draw(t, "kind")
		dir := filepath.Join(root, rapid.SampledFrom([]string{"", "a", "a/b", "c"}).Draw(t, "dir"))
		mustMkdir(t, dir)
		name := fmt.Sprintf("%s%d.txt", kind, i)
		p := filepath.Join(dir, name)
		switch kind {
		case "text":
			mustWrite(t, p, "nothing here\n")
		case "match", "crlf":
			mustWrite(t, p, strings.Repeat("needle line\r\n", rapid.IntRange(1, 30).Draw(t, "matches")))
		case "binary":
			mustWrite(t, p, "needle\x00binary\n")
		case "part":
			mustWrite(t, p, "needle\n"+strings.Repeat("x", binaryBlock)+"\x00needle\n")
		case "latin1":
			mustWrite(t, p, "needle caf\xe9\n")
		case "utf16":
			mustWrite(t, p, "\xff\xfen\x00e\x00")
		case "ignored":
			mustWrite(t, filepath.Join(dir, "ignored"+name), "needle\n")
		case "temp":
			mustWrite(t, filepath.Join(dir, TempName("x.txt", 1, i)), "needle\n")
		case "symlink":
			os.Symlink("/nonexistent", p)
		case "dir":
			mustMkdir(t, filepath.Join(dir, fmt.Sprintf("d%d", i)))
		}
	}
}

func TestLaw_grep_accounts_every_file(t *testing.T) {
	_, noTrees := NewDisk().OpenTree(t.TempDir(), true) // a kernel without openat2 walks by path
	rapid.Check(t, func(rt *rapid.T) {
		root := t.TempDir()
		classTree(rt, root)
		cs := &countingStore{Store: NewDisk()}
		tools := &Tools{Store: cs, Session: NewSession(), Root: root}
		m, _ := NewLineMatcher("needle", true, false)
		var mu sync.Mutex
		visited := map[string]int{}
		tally := tools.walkTree(context.Background(), root, false, func(abs, rel, shown string) WalkClass {
			mu.Lock()
			visited[abs]++
			mu.Unlock()
			snap, err := cs.Read(abs)
			if err != nil {
				return Unreadable
			}
			defer snap.Release()
			c, src := classify(snap.Data)
			collectHit(m, src, SeveralPerFile, 0, nil)
			return c
		})
		// The walk is production's: through the disk's tree, which the
		// wrapper forwards (a wrapper that dropped OpenTree walks by path).
		if noTrees == nil && cs.trees == 0 {
			rt.Fatalf("the walk through the wrapped disk opened no tree: it read by path")
		}
		// The root itself is walked as a directory; every listed entry once.
		if got, want := tally.Total(), cs.listed+1; got != want {
			rt.Fatalf("classes sum to %d, the walk listed %d entries (+ the root): %+v", got, want, tally.Count)
		}
		for p, n := range visited {
			if n != 1 {
				rt.Fatalf("%s visited %d times", p, n)
			}
		}
	})
}

func TestLaw_grep_notes_every_gap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root := t.TempDir()
		classTree(rt, root)
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		m, _ := NewLineMatcher("needle", true, false)
		res, tally := tools.grepTree(context.Background(), m, root, GrepArgs{Pattern: "needle", Literal: true}, nil)
		out := res.Text
		for c := WalkClass(0); c < numClasses; c++ {
			if !c.skipped() {
				continue
			}
			has := strings.Contains(out, "["+c.what(tally.Count[c]))
			if has != (tally.Count[c] > 0) {
				rt.Fatalf("class %q: count %d, notice shown %v\n%s", c.what(tally.Count[c]), tally.Count[c], has, out)
			}
		}
		if strings.Contains(out, TempPrefix) {
			rt.Fatalf("grep showed a temporary file's name:\n%s", out)
		}
	})
}

func TestLaw_grep_notes_every_cut(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root := t.TempDir()
		n := rapid.IntRange(1, 60).Draw(rt, "matches")
		mustWrite(rt, filepath.Join(root, "a.txt"), strings.Repeat("needle\n", n))
		mustWrite(rt, filepath.Join(root, "b.txt"), "needle\n")
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		out := tools.Grep(context.Background(), GrepArgs{Pattern: "needle"}).Text
		cut := fmt.Sprintf("[a.txt: %d of %d matches shown", SeveralPerFile, n)
		if strings.Contains(out, cut) != (n > SeveralPerFile) {
			rt.Fatalf("%d matches; cut notice %v:\n%s", n, strings.Contains(out, cut), out)
		}
		if strings.Contains(out, "[b.txt:") {
			rt.Fatalf("a file that was not cut has a cut notice:\n%s", out)
		}
	})
}

var headerRE = regexp.MustCompile(`(?m)^\[([^\]#]+)#[0-9a-f]{8}\]$`)

// The continuation laws: paging with skip=N walks the files with matches
// in order, each exactly once, and every page before the end is not empty.
func TestLaw_continuation_contiguous(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root := t.TempDir()
		n := rapid.IntRange(0, 70).Draw(rt, "files")
		var want []string
		for i := range n {
			name := fmt.Sprintf("f%03d.txt", i)
			mustWrite(rt, filepath.Join(root, name), "needle\n")
			want = append(want, name)
		}
		mustWrite(rt, filepath.Join(root, "zz.txt"), "hay\n")
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		var got []string
		skip := 0
		for pages := 0; ; pages++ {
			out := tools.Grep(context.Background(), GrepArgs{Pattern: "needle", Skip: skip}).Text
			var page []string
			for _, m := range headerRE.FindAllStringSubmatch(out, -1) {
				page = append(page, m[1])
			}
			more := regexp.MustCompile(`skip=(\d+) for the next`).FindStringSubmatch(out)
			if more == nil {
				got = append(got, page...)
				break
			}
			if len(page) == 0 { // continuation_progresses
				rt.Fatalf("an empty page before the end:\n%s", out)
			}
			got = append(got, page...)
			fmt.Sscan(more[1], &skip)
			if pages > n {
				rt.Fatalf("paging does not end")
			}
		}
		if !slices.Equal(got, want) { // contiguous and disjoint: none left out, none twice
			rt.Fatalf("pages gave %v, want %v", got, want)
		}
	})
}

func TestLaw_search_scope_answers(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		roots := rapid.IntRange(1, 4).Draw(rt, "roots")
		dir := rapid.Bool().Draw(rt, "dirRoot")
		skip := rapid.IntRange(0, 1000).Draw(rt, "skip")
		s := SearchScope(roots, dir, skip)
		several := roots > 1 || dir
		if s.Several != several {
			rt.Fatalf("several = %v for roots=%d dir=%v", s.Several, roots, dir)
		}
		if several && (s.PerFile != 20 || s.Skip != skip || s.Page != 20) {
			rt.Fatalf("several files: %+v", s)
		}
		if !several && (s.PerFile != 200 || s.Skip != 0) {
			rt.Fatalf("one file: %+v", s)
		}
	})
}

func TestLaw_page_is_window(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		total := rapid.IntRange(0, 500).Draw(rt, "total")
		skip := rapid.IntRange(0, 600).Draw(rt, "skip")
		page := rapid.IntRange(1, 200).Draw(rt, "page")
		w := PageWindow(total, skip, page)
		if skip >= total {
			if w.From != w.To || w.Past != (skip > 0) { // past_is_beyond
				rt.Fatalf("skip %d of %d: %+v", skip, total, w)
			}
			return
		}
		if w.From != skip || w.To != min(total, skip+page) || w.To <= w.From {
			rt.Fatalf("window %+v for total=%d skip=%d page=%d", w, total, skip, page)
		}
		if w.More() != total-w.To { // next_is_more
			rt.Fatalf("more %d, want %d", w.More(), total-w.To)
		}
	})
}

func TestLaw_glob_events_answer(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		base := time.Unix(1_700_000_000, 0)
		items := rapid.Custom(func(t *rapid.T) GlobItem {
			return GlobItem{
				Path:  rapid.SampledFrom([]string{"a", "b", "c/d", "c/e", "f", "g/h/i"}).Draw(t, "path") + rapid.StringMatching(`[0-9]?`).Draw(t, "n"),
				MTime: base.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "t")) * time.Second),
			}
		})
		all := rapid.SliceOf(items).Draw(rt, "items")
		skip := rapid.IntRange(0, 80).Draw(rt, "skip")
		limit := rapid.IntRange(0, 300).Draw(rt, "limit")
		page, w := GlobPage(all, skip, limit)
		newest := map[string]time.Time{}
		for _, it := range all {
			if t0, ok := newest[it.Path]; !ok || it.MTime.After(t0) {
				newest[it.Path] = it.MTime
			}
		}
		var want []GlobItem
		for p, t0 := range newest {
			want = append(want, GlobItem{p, t0})
		}
		slices.SortFunc(want, func(a, b GlobItem) int {
			if !a.MTime.Equal(b.MTime) {
				return b.MTime.Compare(a.MTime)
			}
			return strings.Compare(a.Path, b.Path)
		})
		lim := limit
		if lim <= 0 || lim > GlobLimit {
			lim = GlobLimit
		}
		from, to := min(skip, len(want)), min(len(want), skip+lim)
		if !slices.Equal(page, want[from:max(from, to)]) {
			rt.Fatalf("page %v, want %v", page, want[from:max(from, to)])
		}
		if w.Total != len(want) || w.More() != len(want)-max(from, to) {
			rt.Fatalf("window %+v for %d paths", w, len(want))
		}
	})
}

// grep and read show the same text at the same line number, on random
// bytes with \r, \n, \r\n and a BOM.
func TestLaw_grep_line_is_read_line(t *testing.T) {
	root := t.TempDir()
	rapid.Check(t, func(rt *rapid.T) {
		src := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'b', 'x', ' ', '\r', '\n', 'é'})).Draw(rt, "text")
		if rapid.Bool().Draw(rt, "bom") {
			src = "\uFEFF" + src
		}
		mustWrite(rt, filepath.Join(root, "f.txt"), src)
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		needle := rapid.SampledFrom([]string{"a", "b", "x", "ab", "é", " "}).Draw(rt, "needle")
		g := tools.Grep(context.Background(), GrepArgs{Pattern: needle, Path: "f.txt", Literal: true, Context: rapid.IntRange(0, 2).Draw(rt, "context")})
		r := tools.Read(context.Background(), ReadArgs{Path: "f.txt"})
		readRows := map[string]bool{}
		for l := range strings.SplitSeq(r.Text, "\n") {
			readRows[l] = true
		}
		for l := range strings.SplitSeq(g.Text, "\n") {
			if l != "" && l[0] >= '0' && l[0] <= '9' && !readRows[l] {
				rt.Fatalf("grep row %q is not a read row\ngrep:\n%s\nread:\n%s", l, g.Text, r.Text)
			}
		}
	})
}

// The tag of a grep result names the bytes grep searched, and its rows are
// seen: an edit straight from a grep applies.
func TestLaw_tag_names_shown_text_grep(t *testing.T) {
	root := t.TempDir()
	src := "one\r\ntwo needle\r\nthree\r\n"
	mustWrite(t, filepath.Join(root, "f.txt"), src)
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	out := tools.Grep(context.Background(), GrepArgs{Pattern: "needle"}).Text
	want := fmt.Sprintf("[f.txt#%s]\n2:two needle\n", DigestOf([]byte(src)).Tag())
	if !strings.HasPrefix(out, want) {
		t.Fatalf("grep gave\n%s\nwant it to start with\n%s", out, want)
	}
	patch := fmt.Sprintf("[f.txt#%s]\n@@ 2\n+two pins\n", DigestOf([]byte(src)).Tag())
	if res := tools.Edit(context.Background(), EditArgs{Patch: patch}); res.Failed {
		t.Fatalf("edit from a grep: %s", res.Text)
	}
	b, _ := os.ReadFile(filepath.Join(root, "f.txt"))
	if string(b) != "one\r\ntwo pins\r\nthree\r\n" {
		t.Fatalf("file is %q", b)
	}
}

func TestGlobHidesTempFilesAndHonoursIgnore(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a_test.go"), "x")
	mustWrite(t, filepath.Join(root, "sub", "b_test.go"), "x")
	mustWrite(t, filepath.Join(root, "sub", TempName("b_test.go", 7, 1)), "x")
	mustWrite(t, filepath.Join(root, "gen", "c_test.go"), "x")
	mustWrite(t, filepath.Join(root, ".gitignore"), "gen/\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a_test.go"), old, old)
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	out := tools.Glob(context.Background(), GlobArgs{Pattern: "**/*_test.go"}).Text
	if !strings.HasPrefix(out, "sub/b_test.go\na_test.go\n[2 files match") {
		t.Fatalf("glob gave:\n%s", out)
	}
	if strings.Contains(out, TempPrefix) || !strings.Contains(out, "[1 entry ignored by .gitignore") {
		t.Fatalf("glob showed a temp name or hid the ignore count:\n%s", out)
	}
	all := tools.Glob(context.Background(), GlobArgs{Pattern: "**/*_test.go", NoIgnore: true}).Text
	if !strings.Contains(all, "gen/c_test.go") {
		t.Fatalf("noIgnore did not include the ignored file:\n%s", all)
	}
	if res := tools.Glob(context.Background(), GlobArgs{Pattern: "x", Path: "repo://x"}); !res.Failed {
		t.Fatalf("glob took a URL: %s", res.Text)
	}
}
