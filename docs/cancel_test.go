package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// cancelTree makes dirs×files small files, every one holding the needle.
func cancelTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root := t.TempDir()
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			mustWrite(t, filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), "one\nneedle here\nthree\n")
		}
	}
	return root
}

// walkWorkers is how many workers a walk runs (walkBelow): each may have
// one file in hand when the context is cancelled.
func walkWorkers() int { return max(2, runtime.GOMAXPROCS(0)+1) }

// readCounter counts the file reads of a walk and cancels the call at the
// at-th; it tells how many reads began after the cancel.
type readCounter struct {
	at     int64
	cancel context.CancelFunc
	reads  atomic.Int64
	after  atomic.Int64
	once   sync.Once
	fired  atomic.Bool
}

func (c *readCounter) read(rel string) {
	if !strings.HasSuffix(rel, ".txt") {
		return // a .gitignore probe, not a searched file
	}
	if c.fired.Load() {
		c.after.Add(1)
	}
	if c.reads.Add(1) == c.at {
		c.once.Do(func() { c.cancel(); c.fired.Store(true) })
	}
}

// pathStore is a Store walked by path on purpose (ByPath's OpenTree, as
// on a kernel without openat2): its reads are counted.
type pathStore struct {
	Store
	c *readCounter
}

func (s *pathStore) OpenTree(dir string, real bool) (Tree, error) {
	return ByPath{}.OpenTree(dir, real)
}

func (s *pathStore) Read(path string) (Snapshot, error) {
	s.c.read(path)
	return s.Store.Read(path)
}

// treeStore is Disk with its trees (the walk reads through openat2 where
// the kernel has it): the tree's reads are counted.
type treeStore struct {
	*Disk
	c *readCounter
}

func (s *treeStore) OpenTree(dir string, real bool) (Tree, error) {
	t, err := s.Disk.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return &countedTree{Tree: t, c: s.c}, nil
}

type countedTree struct {
	Tree
	c *readCounter
}

func (t *countedTree) Read(rel string) (Snapshot, error) {
	t.c.read(rel)
	return t.Tree.Read(rel)
}

// A grep over a big tree whose call is cancelled mid-walk stops at once:
// at most one file a worker is read after the cancel, and the reply says
// it was cancelled and how far it got, shows no match and marks nothing
// seen (the reply may never reach the model).
func TestGrepCancelledMidWalkStopsAndSaysHowFarItGot(t *testing.T) {
	const dirs, files, at = 40, 50, 300
	root := cancelTree(t, dirs, files)
	for _, kind := range []string{"by path", "through trees"} {
		t.Run(kind, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := &readCounter{at: at, cancel: cancel}
			var store Store = &pathStore{Store: NewDisk(), c: c}
			if kind == "through trees" {
				store = &treeStore{Disk: NewDisk(), c: c}
			}
			tools := &Tools{Store: store, Session: NewSession(), Root: root}
			res := tools.Grep(ctx, GrepArgs{Pattern: "needle", Literal: true})
			if !res.Failed || !strings.HasPrefix(res.Text, "[grep cancelled: the call was cancelled after ") {
				t.Fatalf("reply:\n%s", res.Text)
			}
			if !strings.Contains(res.Text, "files searched under .") || !strings.Contains(res.Text, "nothing is shown and no line counts as seen") {
				t.Fatalf("the reply does not say what was searched so far:\n%s", res.Text)
			}
			if strings.Contains(res.Text, "needle here") || strings.Contains(res.Text, "#") {
				t.Fatalf("a cancelled grep showed rows:\n%s", res.Text)
			}
			if n := c.after.Load(); n > int64(walkWorkers()) {
				t.Fatalf("%d files read after the cancel; at most one a worker (%d) may be", n, walkWorkers())
			}
			if total := c.reads.Load(); total >= dirs*files {
				t.Fatalf("the walk read all %d files", total)
			}
			if len(tools.Session.Files) != 0 {
				t.Fatalf("a cancelled grep marked files seen: %d", len(tools.Session.Files))
			}
			// The count it gives is what it searched: no more than it read.
			var searched int
			fmt.Sscanf(strings.TrimPrefix(res.Text, "[grep cancelled: the call was cancelled after "), "%d", &searched)
			if searched < at-walkWorkers() || int64(searched) > c.reads.Load() {
				t.Fatalf("it says %d files searched; %d were read", searched, c.reads.Load())
			}
		})
	}
}

// The same grep, not cancelled, searches every file: the stop is the
// cancel's, not the tree's.
func TestGrepNotCancelledWalksTheWholeTree(t *testing.T) {
	root := cancelTree(t, 10, 20)
	c := &readCounter{at: -1, cancel: func() {}}
	tools := &Tools{Store: &pathStore{Store: NewDisk(), c: c}, Session: NewSession(), Root: root}
	res := tools.Grep(context.Background(), GrepArgs{Pattern: "needle", Literal: true})
	if res.Failed || !strings.Contains(res.Text, "200 matches in 200 files; 200 files searched under .") || c.reads.Load() != 200 {
		t.Fatalf("%d reads, reply:\n%s", c.reads.Load(), res.Text)
	}
}

// statStore cancels a glob at its at-th stat and counts the stats after,
// on the walk's tree (and by path, where the kernel has no openat2).
type statStore struct {
	Store
	c *readCounter
}

func (s *statStore) OpenTree(dir string, real bool) (Tree, error) {
	return openWatched(s.Store, dir, real, watchedTree{stat: s.c.read})
}

func (s *statStore) Stat(path string) (Stat, error) {
	s.c.read(path)
	return s.Store.Stat(path)
}

// A glob cancelled mid-walk stops the same way and lists nothing.
func TestGlobCancelledMidWalkStops(t *testing.T) {
	const dirs, files, at = 30, 40, 200
	root := cancelTree(t, dirs, files)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &readCounter{at: at, cancel: cancel}
	tools := &Tools{Store: &statStore{Store: NewDisk(), c: c}, Session: NewSession(), Root: root}
	res := tools.Glob(ctx, GlobArgs{Pattern: "*.txt"})
	if !res.Failed || !strings.HasPrefix(res.Text, "[glob cancelled: the call was cancelled after ") || !strings.Contains(res.Text, "files considered under .") {
		t.Fatalf("reply:\n%s", res.Text)
	}
	if strings.Contains(res.Text, ".txt\n") {
		t.Fatalf("a cancelled glob listed paths:\n%s", res.Text)
	}
	if n := c.after.Load(); n > int64(walkWorkers()) {
		t.Fatalf("%d files looked at after the cancel", n)
	}
}

// A call already cancelled when it starts does nothing and says so: no
// read, no write, no edit, no walk.
func TestCancelledCallsDoNothing(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.txt"), "one\ntwo\n")
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	tools.Read(context.Background(), ReadArgs{Path: "a.txt"})
	tag := DigestOf([]byte("one\ntwo\n")).Tag().String()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, res := range map[string]Result{
		"read":  tools.Read(ctx, ReadArgs{Path: "a.txt"}),
		"write": tools.Write(ctx, WriteArgs{Path: "a.txt", Content: "new\n"}),
		"edit":  tools.Edit(ctx, EditArgs{Patch: "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"}),
		"grep":  tools.Grep(ctx, GrepArgs{Pattern: "one"}),
		"glob":  tools.Glob(ctx, GlobArgs{Pattern: "*.txt"}),
	} {
		if !res.Failed || !strings.Contains(res.Text, name+" ") || !strings.Contains(res.Text, "cancelled") {
			t.Errorf("%s: %+v", name, res)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("a cancelled call wrote: %q", b)
	}
}

// cancelOnCommit cancels the call as the commit begins.
type cancelOnCommit struct {
	Store
	cancel context.CancelFunc
}

func (s *cancelOnCommit) Commit(changes []Change) Committed {
	s.cancel()
	return s.Store.Commit(changes)
}

// An edit whose call is cancelled while it commits lands whole: cancelling
// never leaves a half-applied commit.
func TestEditCancelledWhileCommittingLandsWhole(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		mustWrite(t, filepath.Join(root, n), "one\ntwo\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tools := &Tools{Store: &cancelOnCommit{Store: NewDisk(), cancel: cancel}, Session: NewSession(), Root: root}
	var patch strings.Builder
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		tools.Read(context.Background(), ReadArgs{Path: n})
		fmt.Fprintf(&patch, "[%s#%s]\n@@ 2\n+TWO\n", n, DigestOf([]byte("one\ntwo\n")).Tag())
	}
	res := tools.Edit(ctx, EditArgs{Patch: patch.String()})
	if res.Failed || ctx.Err() == nil {
		t.Fatalf("edit: %+v (ctx %v)", res, ctx.Err())
	}
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		if b, _ := os.ReadFile(filepath.Join(root, n)); string(b) != "one\nTWO\n" {
			t.Fatalf("%s after a commit cancelled midway: %q", n, b)
		}
	}
}

// ctxGuard records the value the call's context carries when it judges.
type ctxGuard struct{ got []any }

type callKey struct{}

func (g *ctxGuard) Allow(ctx context.Context, path string, _ Access) (string, error) {
	g.got = append(g.got, ctx.Value(callKey{}))
	return path, nil
}

func (g *ctxGuard) SecretName(string) bool { return false }

func (g *ctxGuard) SameReal(string, string) bool { return true }

// The path guard judges under the call's own context: per-call state comes
// from it, not from the guard (mvdan.cc/sh's handler style).
func TestGuardJudgesUnderTheCallsContext(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "a.txt"), "one\n")
	g := &ctxGuard{}
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root, Guard: g}
	for i, call := range []func(context.Context) Result{
		func(ctx context.Context) Result { return tools.Read(ctx, ReadArgs{Path: "a.txt"}) },
		func(ctx context.Context) Result { return tools.Grep(ctx, GrepArgs{Pattern: "one"}) },
		func(ctx context.Context) Result { return tools.Glob(ctx, GlobArgs{Pattern: "*"}) },
		func(ctx context.Context) Result { return tools.Write(ctx, WriteArgs{Path: "b.txt", Content: "x\n"}) },
	} {
		if res := call(context.WithValue(context.Background(), callKey{}, i)); res.Failed {
			t.Fatalf("call %d: %s", i, res.Text)
		}
		if len(g.got) != i+1 || g.got[i] != i {
			t.Fatalf("call %d judged under %v", i, g.got)
		}
	}
}

// cancelAtStore cancels the call at its k-th read or listing, counts the
// reads begun after, and the entries listed (as countingStore does).
type cancelAtStore struct {
	Store
	k      int64
	cancel context.CancelFunc
	ops    atomic.Int64
	fired  atomic.Bool
	after  atomic.Int64
	mu     sync.Mutex
	listed int
}

func (s *cancelAtStore) op() {
	if s.fired.Load() {
		s.after.Add(1)
	}
	if s.ops.Add(1) == s.k {
		s.cancel()
		s.fired.Store(true)
	}
}

// OpenTree watches the walk's tree as Read and List watch reads by path.
func (s *cancelAtStore) OpenTree(dir string, real bool) (Tree, error) {
	op := func(string) { s.op() }
	return openWatched(s.Store, dir, real, watchedTree{read: op, list: op, listed: s.count})
}

func (s *cancelAtStore) count(n int) {
	s.mu.Lock()
	s.listed += n
	s.mu.Unlock()
}

func (s *cancelAtStore) Read(path string) (Snapshot, error) {
	s.op()
	return s.Store.Read(path)
}

func (s *cancelAtStore) List(dir string) ([]Entry, error) {
	s.op()
	es, err := s.Store.List(dir)
	s.count(len(es))
	return es, err
}

// grep_accounts_every_file, with the call cancelled at any point of the
// walk: a grep either accounts for every file (the law, whole) or says it
// was cancelled and how far it got — never a part of the walk shown as the
// whole — and a cancelled one reads at most one file a worker after the
// cancel, shows no row and marks nothing seen.
func TestLaw_grep_accounts_every_file_when_cancelled(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root := t.TempDir()
		classTree(rt, root)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := &cancelAtStore{Store: NewDisk(), k: int64(rapid.IntRange(1, 60).Draw(rt, "cancel at")), cancel: cancel}
		tools := &Tools{Store: s, Session: NewSession(), Root: root}
		m, _ := NewLineMatcher("needle", true, false)
		res, tally := tools.grepTree(ctx, m, root, GrepArgs{Pattern: "needle", Literal: true}, nil)
		said := strings.HasPrefix(res.Text, "[grep cancelled: ")
		if said != tally.Stopped || said != res.Failed {
			rt.Fatalf("stopped %v, failed %v, reply:\n%s", tally.Stopped, res.Failed, res.Text)
		}
		if !tally.Stopped {
			if got, want := tally.Total(), s.listed+1; got != want {
				rt.Fatalf("a whole reply: classes sum to %d, the walk listed %d entries (+ the root)", got, want)
			}
			return
		}
		if n := s.after.Load(); n > int64(walkWorkers()) {
			rt.Fatalf("%d reads or listings after the cancel", n)
		}
		if strings.Contains(res.Text, "#") || len(tools.Session.Files) != 0 {
			rt.Fatalf("a cancelled grep showed rows or marked lines seen:\n%s", res.Text)
		}
	})
}
