//go:build !windows

package docs_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// The temporary files of S8.5: `.eukhe-tmp-<name>-<pid>-<n>` beside the
// target, locked by the writer that made it; each write of a target removes
// that target's temporary files that no writer locks.

// tempNameGen draws file names that make temporary names hard to tell
// apart: dashes and digits ("a" against "a-1" and "a-1-2"), names that end
// like a temporary name's numbers, multi-byte text, and long names (over
// 200 bytes, up to the 255 a directory entry takes).
func tempNameGen() *rapid.Generator[string] {
	piece := rapid.SampledFrom([]string{"a", "b", "-", "1", "2", "0", "-1", "-12", "~", ".", "x", "é", "名", "-0-0", ".go"})
	short := rapid.Custom(func(t *rapid.T) string {
		ps := rapid.SliceOfN(piece, 1, 6).Draw(t, "pieces")
		return strings.Join(ps, "")
	})
	long := rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(190, 255).Draw(t, "len")
		unit := rapid.SampledFrom([]string{"a", "-1", "é", "名", "x-"}).Draw(t, "unit")
		s := strings.Repeat(unit, n/len(unit)+1)
		s = s[:n]
		for !utf8.ValidString(s) { // keep whole characters
			s = s[:len(s)-1]
		}
		return s + rapid.SampledFrom([]string{"", "-1", "-1-2", ".txt"}).Draw(t, "tail")
	})
	return rapid.Custom(func(t *rapid.T) string {
		var s string
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0, 1:
			s = short.Draw(t, "short")
		case 2:
			s = long.Draw(t, "long")
		default:
			// The part of a long name's temporary name that names its
			// target, used as a name of its own.
			l := long.Draw(t, "long")
			s = strings.TrimSuffix(strings.TrimPrefix(docs.TempName(l, 1, 1), docs.TempPrefix), "-1-1")
		}
		if len(s) > 255 {
			s = s[:255]
			for !utf8.ValidString(s) {
				s = s[:len(s)-1]
			}
		}
		if s == "." || s == ".." {
			s += "x"
		}
		return s
	})
}

// ownTemp is the oracle of temp_sweep_only_own: an entry is target's
// temporary file iff it is the name a writer of target makes, for some pid
// and counter.
func ownTemp(entry, target string) bool {
	rest, n, ok := cutLastField(entry)
	if !ok {
		return false
	}
	rest, pid, ok := cutLastField(rest)
	if !ok {
		return false
	}
	_ = rest
	p, err1 := strconv.Atoi(pid)
	c, err2 := strconv.Atoi(n)
	return err1 == nil && err2 == nil && p >= 0 && c >= 0 && docs.TempName(target, p, c) == entry
}

func cutLastField(s string) (rest, field string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// junkNames are names that look like temporary files and are not any
// target's: a missing number, a number that a writer never spells, a
// suffix after the numbers.
func junkNames(target string, pid int) []string {
	stem := docs.TempPrefix + target + "-"
	p := strconv.Itoa(pid)
	return []string{
		stem + p,
		stem + p + "-",
		stem + "-" + p,
		stem + "0" + p + "-1",
		stem + p + "-01",
		stem + p + "-1x",
		stem + p + "-+1",
		stem + p + "-99999999999999999999999",
		docs.TempPrefix + target,
		target + "-" + p + "-1",
		".eukhe-tmp" + target + "-" + p + "-1",
	}
}

func TestTempName_fits_and_is_own(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		target := tempNameGen().Draw(t, "target")
		pid := rapid.IntRange(0, 1<<62).Draw(t, "pid")
		n := rapid.IntRange(0, 1<<62).Draw(t, "n")
		name := docs.TempName(target, pid, n)
		if len(name) > 255 {
			t.Fatalf("temp name of a %d-byte name is %d bytes, over 255: %q", len(target), len(name), name)
		}
		if !strings.HasPrefix(name, docs.TempPrefix) || !docs.IsTemp(name) {
			t.Fatalf("temp name %q does not start with %q", name, docs.TempPrefix)
		}
		if utf8.ValidString(target) && !utf8.ValidString(name) {
			t.Fatalf("temp name of UTF-8 name %q is not UTF-8: %q", target, name)
		}
		if strings.ContainsAny(name, "/\x00") {
			t.Fatalf("temp name %q holds a byte a file name cannot", name)
		}
		if !docs.IsTempOf(name, target) {
			t.Fatalf("IsTempOf(%q, %q) is false for the target's own temp name", name, target)
		}
	})
}

func TestLaw_temp_sweep_only_own(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfNDistinct(tempNameGen(), 1, 5, rapid.ID[string]).Draw(t, "names")
		owner := map[string]string{}
		var entries []string
		for i, nm := range names {
			for k := range rapid.IntRange(0, 3).Draw(t, "temps") {
				pid := rapid.IntRange(0, 1<<40).Draw(t, "pid")
				e := docs.TempName(nm, pid, k+i)
				if prev, ok := owner[e]; ok && prev != nm {
					t.Fatalf("%q and %q share the temp name %q", prev, nm, e)
				}
				owner[e] = nm
				entries = append(entries, e)
			}
			entries = append(entries, nm)
			entries = append(entries, junkNames(nm, rapid.IntRange(1, 99999).Draw(t, "jpid"))...)
		}
		for _, nm := range names {
			for _, e := range docs.Sweep(entries, nm) {
				if !ownTemp(e, nm) {
					t.Fatalf("the sweep of %q removes %q, which is not its temp file (owner %q)", nm, e, owner[e])
				}
				if o, ok := owner[e]; ok && o != nm {
					t.Fatalf("the sweep of %q removes %q, the temp file of %q", nm, e, o)
				}
			}
		}
	})
}

func TestTemp_sweep_only_own_cases(t *testing.T) {
	long := strings.Repeat("x-1", 80) // 240 bytes
	longer := long + "-2"
	sameStem := strings.TrimSuffix(strings.TrimPrefix(docs.TempName(long, 1, 1), docs.TempPrefix), "-1-1")
	cases := []struct {
		entry, target string
		own           bool
	}{
		{docs.TempName("a", 7, 1), "a", true},
		{docs.TempName("a-1", 7, 1), "a", false},
		{docs.TempName("a", 1, 7), "a-1", false},
		{docs.TempName("a-1-2", 3, 4), "a", false},
		{docs.TempName("a-1-2", 3, 4), "a-1", false},
		{docs.TempName("a", 1, 2), "a-1-2", false},
		{docs.TempName("a-1", 2, 3), "a-1-2", false},
		{docs.TempName(long, 5, 6), long, true},
		{docs.TempName(long, 5, 6), longer, false},
		{docs.TempName(longer, 5, 6), long, false},
		{docs.TempName(long, 5, 6), sameStem, false},
		{docs.TempName(sameStem, 5, 6), long, false},
		{docs.TempPrefix + "a-007-1", "a", false},
		{docs.TempPrefix + "a-7-1", "a", true},
	}
	for _, c := range cases {
		if got := docs.IsTempOf(c.entry, c.target); got != c.own {
			t.Errorf("IsTempOf(%q, %q) = %v, want %v", c.entry, c.target, got, c.own)
		}
	}
}

// sweepDir makes a fresh directory for one rapid case under the test's own.
func sweepDir(t *testing.T, rt *rapid.T) string {
	d, err := os.MkdirTemp(t.TempDir(), "case")
	if err != nil {
		rt.Fatal(err)
	}
	return d
}

// holdTempLock creates a temp file and holds a real flock on it, as a live
// writer does, until the test's cleanup.
func holdTempLock(tb cleanupFailer, path string) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		tb.Fatal(err)
	}
	f.WriteString("a live writer's bytes")
	tb.Cleanup(func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() })
}

// sweepCase is one directory of the sweep laws: a target, temp files of it
// (some locked by a live writer), temp files of its neighbours, then one
// write of the target.
type sweepCase struct {
	dir, target string
	held, free  []string // the target's temp files
	others      []string // other names, temp files of other targets included
}

func drawSweepCase(t *testing.T, rt *rapid.T) sweepCase {
	c := sweepCase{dir: sweepDir(t, rt)}
	names := rapid.SliceOfNDistinct(tempNameGen(), 2, 3, rapid.ID[string]).Draw(rt, "names")
	c.target = names[0]
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(c.dir, name), []byte("x"), 0o644); err != nil {
			rt.Fatal(err)
		}
	}
	write(c.target)
	used := map[string]bool{}
	for i, nm := range names {
		if i > 0 {
			write(nm)
			c.others = append(c.others, nm)
		}
		for k := range rapid.IntRange(0, 3).Draw(rt, "temps") {
			pid := rapid.IntRange(1, 1<<22).Draw(rt, "pid")
			e := docs.TempName(nm, pid, k)
			if used[e] {
				continue
			}
			used[e] = true
			held := rapid.Bool().Draw(rt, "held")
			switch {
			case held:
				holdTempLock(rt, filepath.Join(c.dir, e))
			default:
				write(e)
			}
			switch {
			case i > 0:
				c.others = append(c.others, e)
			case held:
				c.held = append(c.held, e)
			default:
				c.free = append(c.free, e)
			}
		}
		junk := junkNames(nm, 42)
		for range 2 {
			j := rapid.SampledFrom(junk).Draw(rt, "junk")
			if !used[j] && !slices.Contains(names, j) && len(j) <= 255 {
				used[j] = true
				write(j)
				if ownTemp(j, c.target) { // "b-1" + "-42" is b's temp file of pid 1
					c.free = append(c.free, j)
				} else {
					c.others = append(c.others, j)
				}
			}
		}
	}
	return c
}

// writeTarget is one write of the target through the disk Store: in
// place, or a create, a move, or a move with an edit onto its name.
func (c sweepCase) writeTarget(rt *rapid.T) {
	path := filepath.Join(c.dir, c.target)
	ch := docs.Change{Path: path, Old: []byte("x"), New: []byte("new\n")}
	switch how := rapid.SampledFrom([]string{"replace", "create", "move", "move+edit"}).Draw(rt, "how"); how {
	case "create":
		must(rt, os.Remove(path))
		ch = docs.Change{Path: path, Create: true, New: []byte("new\n")}
	case "move", "move+edit":
		src := filepath.Join(c.dir, "..", filepath.Base(c.dir)+"-source")
		must(rt, os.Rename(path, src))
		ch = docs.Change{Path: src, Old: []byte("x"), MoveTo: path}
		if how == "move+edit" {
			ch.New = []byte("new\n")
		}
	}
	res := docs.NewDisk().Commit([]docs.Change{ch})
	if res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed {
		rt.Fatalf("write of %s: %+v", c.target, res)
	}
}

func TestLaw_temp_sweep_never_held(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawSweepCase(t, rt)
		c.writeTarget(rt)
		left := namesIn(rt, c.dir)
		for _, h := range c.held {
			if !slices.Contains(left, h) {
				rt.Fatalf("the write of %q removed %q, which a live writer locks", c.target, h)
			}
		}
	})
}

func TestLaw_temp_sweep_removes_free(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawSweepCase(t, rt)
		c.writeTarget(rt)
		left := namesIn(rt, c.dir)
		for _, e := range left {
			if docs.IsTemp(e) && ownTemp(e, c.target) && !slices.Contains(c.held, e) {
				rt.Fatalf("after a write of %q, its unlocked temp file %q is still there", c.target, e)
			}
		}
		for _, f := range c.free {
			if slices.Contains(left, f) {
				rt.Fatalf("after a write of %q, its unlocked temp file %q is still there", c.target, f)
			}
		}
	})
}

func TestLaw_temp_sweep_only_own_on_disk(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawSweepCase(t, rt)
		c.writeTarget(rt)
		left := namesIn(rt, c.dir)
		for _, o := range c.others {
			if !slices.Contains(left, o) {
				rt.Fatalf("the write of %q removed %q, which is not its temp file", c.target, o)
			}
		}
		if !slices.Contains(left, c.target) {
			rt.Fatalf("the target %q is gone", c.target)
		}
	})
}

// A writer locks its temp file until it is the target: a sweep run from
// another writer right before the rename cannot take it.
func TestTemp_writer_locks_its_temp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	os.WriteFile(path, []byte("old\n"), 0o644)
	d := docs.NewDisk()
	checked := 0
	d.Fault = func(step, p string) error {
		if step != "rename" {
			return nil
		}
		for _, e := range namesIn(t, dir) {
			if !docs.IsTempOf(e, "a.txt") {
				continue
			}
			f, err := os.Open(filepath.Join(dir, e))
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
				t.Errorf("at step %s the writer's temp file %s is not locked", step, e)
			}
			f.Close()
			checked++
		}
		return nil
	}
	res := d.Commit([]docs.Change{{Path: path, Old: []byte("old\n"), New: []byte("new\n")}})
	if res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed {
		t.Fatalf("commit: %+v", res)
	}
	if checked != 1 {
		t.Fatalf("saw the writer's temp file at %d steps, want 1", checked)
	}
	for _, e := range namesIn(t, dir) {
		if docs.IsTemp(e) {
			t.Errorf("temp file %s stays after the write", e)
		}
	}
}
