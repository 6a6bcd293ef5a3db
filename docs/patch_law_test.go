package docs_test

// The patch language and the commit: S8.2 (a retried start or end insert
// does not insert again), stale tags rebased through the line diff
// (LineMap, Rebase), and S8.1 through the edit tool on real directories:
// edit_reports_what_landed, edit_all_or_nothing_on_conflict,
// edit_lands_every_file.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// S8.2: a retry of a start or end insert with the old tag, after the
// insert landed, does not insert again: the result says the edit is
// already in the file.
func TestRetry_start_end_insert_is_already_in_file(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		b := genFile(t, "file", true, 12)
		ws.put(t, "f.txt", b)
		if r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"}); r.Failed {
			t.Fatalf("read: %s", r.Text)
		}
		var ops []docs.Op
		for i := range rapid.IntRange(1, 2).Draw(t, "ops") {
			k := docs.OpKind(rapid.IntRange(int(docs.OpStart), int(docs.OpEnd)).Draw(t, fmt.Sprintf("op%d/kind", i)))
			lines := []string{genNewText(t, fmt.Sprintf("op%d/line", i))}
			if rapid.Bool().Draw(t, fmt.Sprintf("op%d/two", i)) {
				lines = append(lines, genNewText(t, fmt.Sprintf("op%d/line2", i)))
			}
			ops = append(ops, docs.Op{Kind: k, Lines: lines})
		}
		patch := "[f.txt#" + tagOf(b) + "]\n" + spellOps(ops)
		first := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
		after, _ := ws.get(t, "f.txt")
		if first.Failed || bytes.Equal(after, b) {
			t.Fatalf("the insert did not land: %s", first.Text)
		}
		retry := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: patch})
		again, _ := ws.get(t, "f.txt")
		if !bytes.Equal(again, after) {
			t.Fatalf("the retry inserted again: %s became %s (%s)", short(after), short(again), retry.Text)
		}
		if retry.Failed || !strings.Contains(retry.Text, "already in the file") {
			t.Fatalf("the retry says %q, want: already in the file", retry.Text)
		}
	})
}

// staleCase is a file read at v1, then changed by another program to v2
// by a script that keeps, deletes and replaces v1's lines and inserts new
// ones. v1's lines are all distinct and v2's new lines are new, so the
// line diff has one answer: the kept lines.
type staleCase struct {
	v1, v2 []byte
	l1, l2 []refLine
	toV2   []int // v1 line -> v2 line, 0 when it changed or went
}

func drawStale(t *rapid.T) staleCase {
	var c staleCase
	n := rapid.IntRange(1, 14).Draw(t, "n")
	fresh := 0
	ending := func(label string) string {
		return rapid.SampledFrom([]string{"\n", "\n", "\r\n"}).Draw(t, label)
	}
	addV2 := func(text, end string) {
		c.v2 = append(c.v2, text+end...)
		c.l2 = append(c.l2, refLine{text, end})
	}
	insertSome := func(label string) {
		if rapid.IntRange(0, 3).Draw(t, label) == 0 {
			fresh++
			addV2(fmt.Sprintf("N%d new", fresh), ending(label+"/end"))
		}
	}
	c.toV2 = make([]int, n)
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("L%d %s.", i, strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{"a", "é", "\r", " "}), 0, 4).Draw(t, fmt.Sprintf("l%d", i)), ""))
		end := ending(fmt.Sprintf("l%d/end", i))
		c.v1 = append(c.v1, text+end...)
		c.l1 = append(c.l1, refLine{text, end})
		insertSome(fmt.Sprintf("ins%d", i))
		switch rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("fate%d", i)) {
		case 0: // deleted
		case 1: // replaced
			fresh++
			addV2(fmt.Sprintf("N%d was L%d", fresh, i), end)
		default:
			addV2(text, end)
			c.toV2[i-1] = len(c.l2)
		}
	}
	insertSome("insEnd")
	return c
}

// rebase moves ops on v1 onto v2, or names the anchors that changed.
func (c staleCase) rebase(ops []docs.Op) (out []docs.Op, changed []int) {
	for _, o := range ops {
		r := o
		anchors := opAnchors(o)
		bad := false
		for i, l := range anchors {
			if c.toV2[l-1] == 0 || (i > 0 && o.Kind == docs.OpReplace && c.toV2[l-1] != c.toV2[l-2]+1) {
				changed = append(changed, l)
				bad = true
			}
		}
		if !bad && len(anchors) > 0 {
			r.A, r.B = c.toV2[o.A-1], c.toV2[o.B-1]
		}
		out = append(out, r)
	}
	return out, changed
}

// LineMap is a valid common subsequence of the two versions, as long as
// any (the diff is Myers': a shortest edit script), and the identity on
// equal inputs.
func TestLineMap_is_a_longest_common_subsequence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := rapid.SliceOfN(rapid.Uint64Range(1, 4), 0, 40).Draw(t, "old")
		cur := rapid.SliceOfN(rapid.Uint64Range(1, 4), 0, 40).Draw(t, "cur")
		if rapid.IntRange(0, 4).Draw(t, "equal") == 0 {
			cur = slices.Clone(old)
		}
		m := docs.LineMap(old, cur)
		if len(m) != len(old) {
			t.Fatalf("map of %d lines for %d", len(m), len(old))
		}
		last, matched := 0, 0
		for i, j := range m {
			if j == 0 {
				continue
			}
			if j <= last || j > len(cur) || old[i] != cur[j-1] {
				t.Fatalf("LineMap(%v, %v) = %v: line %d -> %d is not a common subsequence", old, cur, m, i+1, j)
			}
			last = j
			matched++
		}
		if want := lcs(old, cur); matched != want {
			t.Fatalf("LineMap(%v, %v) = %v keeps %d lines; the longest common subsequence has %d", old, cur, m, matched, want)
		}
		if slices.Equal(old, cur) {
			for i, j := range m {
				if j != i+1 {
					t.Fatalf("LineMap of equal inputs %v = %v", old, m)
				}
			}
		}
	})
}

func lcs(a, b []uint64) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// A stale tag is rebased through the line diff: the edit applies to the
// current file when its lines did not change, and is refused otherwise,
// with the lines that are there now shown (and seen), and nothing written.
func TestRebase_stale_tag_through_line_diff(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		c := drawStale(t)
		ws := newWorkspace(t, parent)
		ws.put(t, "f.txt", c.v1)
		if r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"}); r.Failed {
			t.Fatalf("read: %s", r.Text)
		}
		ws.put(t, "f.txt", c.v2) // another program changes the file
		ops := genOps(t, len(c.l1), true, 4)
		if len(ops) == 0 {
			ops = []docs.Op{{Kind: docs.OpReplace, A: 1, B: 1, Lines: []string{"x"}}}
		}
		r := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: "[f.txt#" + tagOf(c.v1) + "]\n" + spellOps(ops)})
		got, _ := ws.get(t, "f.txt")

		m1, _ := modelApply(len(c.l1), ops)
		// Not stale (v2 == v1): the edit simply applies.
		already := !bytes.Equal(c.v1, c.v2) && len(m1.pieces) == len(c.l2)
		for i, pc := range m1.pieces {
			already = already && pieceText(c.l1, pc) == c.l2[i].text
		}
		rebased, changed := c.rebase(ops)
		switch {
		case already:
			if r.Failed || !bytes.Equal(got, c.v2) || !strings.Contains(r.Text, "already in the file") {
				t.Fatalf("the edit is already in the file, yet: %s", r.Text)
			}
		case len(changed) == 0:
			m2, ok := modelApply(len(c.l2), rebased)
			if !ok {
				t.Fatalf("rebased ops do not fit: %+v", rebased)
			}
			want := weave(c.v2, m2.pieces)
			if r.Failed || !bytes.Equal(got, want) {
				t.Fatalf("ops %+v on v1 %s, now v2 %s, rebased %+v:\nreply %s\nfile %s\nwant %s", ops, short(c.v1), short(c.v2), rebased, r.Text, short(got), short(want))
			}
			// S8.8: the lines seen before (all of v1, mapped through the
			// diff and the edit) and the lines the edit wrote are seen.
			var seen []int
			for l := 1; l <= len(c.l1); l++ {
				if j := c.toV2[l-1]; j > 0 && m2.mapping[j-1] > 0 {
					seen = append(seen, m2.mapping[j-1])
				}
			}
			seen = append(seen, m2.written...)
			slices.Sort(seen)
			nv := ws.tools.Session.Knows(ws.path("f.txt"), docs.DigestOf(want))
			if nv == nil {
				t.Fatalf("the session does not know the version the edit wrote")
			}
			if gotSeen := lineSetOf(&nv.Seen); !slices.Equal(gotSeen, slices.Compact(seen)) {
				t.Fatalf("seen after the rebased edit %v, want %v", gotSeen, seen)
			}
		default:
			if !r.Failed || !bytes.Equal(got, c.v2) {
				t.Fatalf("anchors %v changed, yet: %s (file %s)", changed, r.Text, short(got))
			}
			if !strings.Contains(r.Text, "NOT applied") || !strings.Contains(r.Text, "changed since #"+tagOf(c.v1)) {
				t.Fatalf("refusal %q", r.Text)
			}
			// The lines now where the changed anchors were are shown, as
			// rows of the current file, and count as seen there.
			nums, texts := rowsOf(r.Text)
			for i, n := range nums {
				if n < 1 || n > len(c.l2) || texts[i] != c.l2[n-1].text {
					t.Fatalf("row %d:%s is not line %d of the current file", n, texts[i], n)
				}
			}
			for _, l := range changed {
				lo, hi := 1, len(c.l2)
				for k := l - 1; k >= 1; k-- {
					if c.toV2[k-1] > 0 {
						lo = c.toV2[k-1] + 1
						break
					}
				}
				for k := l + 1; k <= len(c.l1); k++ {
					if c.toV2[k-1] > 0 {
						hi = c.toV2[k-1] - 1
						break
					}
				}
				for n := lo; n <= hi; n++ {
					if !slices.Contains(nums, n) {
						t.Fatalf("anchor %d changed; line %d of the current file, in its place, is not shown: %s", l, n, r.Text)
					}
				}
			}
			v2 := ws.tools.Session.Knows(ws.path("f.txt"), docs.DigestOf(c.v2))
			if v2 == nil {
				t.Fatalf("the refusal showed rows of a version the session does not keep")
			}
			if got := lineSetOf(&v2.Seen); !slices.Equal(got, nums) {
				t.Fatalf("seen in the current version %v, rows shown %v", got, nums)
			}
		}
	})
}

// commitFile is one section of a multi-file edit.
type commitFile struct {
	name   string // as the patch names it
	moveTo string
	create bool
	old    []byte
	new    []byte
	body   string
	// anchored: an op stands on a line of the file, so a change of every
	// line under it is a conflict the rebase cannot take.
	anchored bool
}

func (f commitFile) target() string {
	if f.moveTo != "" {
		return f.moveTo
	}
	return f.name
}

// drawCommit writes 1-4 files, reads them whole, and draws an edit of all
// of them: ops on each, some moved, some sections creating new files.
func drawCommit(t *rapid.T, ws *workspace) []commitFile {
	var fs []commitFile
	for i := range rapid.IntRange(1, 4).Draw(t, "files") {
		f := commitFile{name: fmt.Sprintf("d%d/f%d.txt", i%2, i)}
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("f%d/create", i)) == 0 {
			f.create = true
			f.name = fmt.Sprintf("new%d/c%d.txt", i, i)
			lines := rapid.SliceOfN(rapid.Just(""), 0, 3).Draw(t, fmt.Sprintf("f%d/n", i))
			for j := range lines {
				lines[j] = genNewText(t, fmt.Sprintf("f%d/line%d", i, j))
				f.body += "+" + lines[j] + "\n"
			}
			if len(lines) > 0 {
				f.new = []byte(strings.Join(lines, "\n") + "\n")
			} else {
				f.new = []byte{}
			}
			fs = append(fs, f)
			continue
		}
		f.old = genFile(t, fmt.Sprintf("f%d", i), true, 10)
		ws.put(t, f.name, f.old)
		if r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: f.name}); r.Failed {
			t.Fatalf("read %s: %s", f.name, r.Text)
		}
		n := len(docs.Scan(f.old).Lines)
		// Every section ends with a line of its own, so its new bytes
		// differ from the old ones.
		ops := append(genOps(t, n, true, 3), docs.Op{Kind: docs.OpEnd, Lines: []string{fmt.Sprintf("edited %d", i)}})
		m, _ := modelApply(n, ops)
		f.new = weave(f.old, m.pieces)
		f.body = spellOps(ops)
		for _, o := range ops {
			if a, b := o.Anchors(); a <= b {
				f.anchored = true
			}
		}
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("f%d/move", i)) == 0 {
			f.moveTo = fmt.Sprintf("moved%d/f%d.txt", i, i)
			f.body += "MV " + f.moveTo + "\n"
		}
		fs = append(fs, f)
	}
	return fs
}

func commitPatch(fs []commitFile) string {
	var b strings.Builder
	for _, f := range fs {
		if f.create {
			b.WriteString("[" + f.name + "]\n")
		} else {
			b.WriteString("[" + f.name + "#" + tagOf(f.old) + "]\n")
		}
		b.WriteString(f.body)
	}
	return b.String()
}

var appliedRe = regexp.MustCompile(`([^\s,;]+)#([0-9a-f]{8})`)

// appliedList reads the files a reply says landed, with their tags.
func appliedList(text string) map[string]string {
	line, _, _ := strings.Cut(text, "\n")
	out := map[string]string{}
	rest, ok := strings.CutPrefix(line, "Applied to ")
	if !ok {
		return out
	}
	if i := strings.Index(rest, "; NOT applied"); i >= 0 {
		rest = rest[:i]
	}
	for _, m := range appliedRe.FindAllStringSubmatch(rest, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// edit_lands_every_file: no change underneath, no failed write: every file
// lands, and the reply names each with its new tag.
func TestLaw_edit_lands_every_file(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		fs := drawCommit(t, ws)
		r := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: commitPatch(fs)})
		if r.Failed {
			t.Fatalf("edit failed: %s\npatch:\n%s", r.Text, commitPatch(fs))
		}
		applied := appliedList(r.Text)
		for _, f := range fs {
			got, ok := ws.get(t, f.target())
			if !ok || !bytes.Equal(got, f.new) {
				t.Fatalf("%s holds %s, want %s (reply %s)", f.target(), short(got), short(f.new), r.Text)
			}
			if f.moveTo != "" {
				if _, still := ws.get(t, f.name); still {
					t.Fatalf("moved %s is still there", f.name)
				}
			}
			if applied[f.target()] != tagOf(f.new) {
				t.Fatalf("reply %q does not name %s#%s", r.Text, f.target(), tagOf(f.new))
			}
		}
		if len(applied) != len(fs) {
			t.Fatalf("reply names %d files, the edit has %d: %s", len(applied), len(fs), r.Text)
		}
	})
}

// hookStore runs a function right before a commit: another program
// changing a file between the edit's staging and its commit. An edit of
// several files commits through the disk's batch (Change.Begun) all the
// same: the hook runs on that path too.
type hookStore struct {
	*docs.Disk
	before func()
}

func (h hookStore) Commit(cs []docs.Change) docs.Committed {
	h.before()
	return h.Disk.Commit(cs)
}

// edit_all_or_nothing_on_conflict: one file changed since staging (or a
// move's destination, or a created name, taken): no file lands. Since the
// check under the writer's lock rebases as a stale tag does (issue 16), a
// file's change is a conflict when a line the edit stands on changed: the
// other program replaces every line of a file whose section stands on a
// line; a section that stands on none (inserts at ^ and $ only) takes the
// change, and its file is hooked only through a move's destination.
func TestLaw_edit_all_or_nothing_on_conflict(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		fs := drawCommit(t, ws)
		var can []int
		for i, f := range fs {
			if f.create || f.anchored || f.moveTo != "" {
				can = append(can, i)
			}
		}
		if len(can) == 0 {
			t.Skip("no section of this edit can conflict: each only inserts at ^ or $")
		}
		j := rapid.SampledFrom(can).Draw(t, "conflict")
		squat := []byte("another program's bytes\n")
		hooked := fs[j].name
		if fs[j].moveTo != "" && (!fs[j].anchored || rapid.Bool().Draw(t, "squatDest")) {
			hooked = fs[j].moveTo
		}
		ws.tools.Store = hookStore{Disk: docs.NewDisk(), before: func() {
			ws.put(t, hooked, squat)
		}}
		r := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: commitPatch(fs)})
		if !r.Failed || !strings.Contains(r.Text, "NOT applied") || !strings.Contains(r.Text, "Nothing was written") || len(appliedList(r.Text)) > 0 {
			t.Fatalf("%s changed before the commit, yet the reply is %q", hooked, r.Text)
		}
		for _, f := range fs {
			got, ok := ws.get(t, f.name)
			switch {
			case f.name == hooked:
				if !bytes.Equal(got, squat) {
					t.Fatalf("%s holds %s, the other program wrote %s", f.name, short(got), short(squat))
				}
			case f.create:
				if ok {
					t.Fatalf("created %s exists after a conflict: %s", f.name, short(got))
				}
			case !ok || !bytes.Equal(got, f.old):
				t.Fatalf("%s holds %s after a conflict, want its old %s", f.name, short(got), short(f.old))
			}
			if f.moveTo != "" && f.moveTo != hooked {
				if _, ok := ws.get(t, f.moveTo); ok {
					t.Fatalf("move destination %s exists after a conflict", f.moveTo)
				}
			}
		}
	})
}

var errFault = errors.New("injected fault")

// edit_reports_what_landed: with a failure injected at a random step of
// the commit, the reply says a file was applied iff its new content is on
// disk; it is an error iff nothing landed, and never says nothing was
// written when a file landed.
func TestLaw_edit_reports_what_landed(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		fs := drawCommit(t, ws)
		disk := docs.NewDisk()
		// Fail one step of the publish of file k, and maybe, after that,
		// a step of the restore of an earlier file j (a restore writes a
		// temporary file beside it).
		steps := []string{"rename", "temp", "fsync", "write", "dirsync", "link", "unlink", "mkdir", "lock"}
		k := len(fs) - 1 - rapid.IntRange(0, len(fs)-1).Draw(t, "failingFileFromLast")
		step := rapid.SampledFrom(steps).Draw(t, "step")
		j := k - 1 - rapid.IntRange(0, k).Draw(t, "restoreFailingFileBefore") // -1: none
		step2 := rapid.SampledFrom([]string{"temp", "write", "fsync"}).Draw(t, "restoreStep")
		of := func(i int) []string {
			f := fs[i]
			return []string{ws.path(f.name), ws.path(f.target()), filepath.Dir(ws.path(f.target())), filepath.Dir(ws.path(f.name))}
		}
		fired, fired2 := false, false
		disk.Fault = func(s, path string) error {
			switch {
			case !fired && s == step && slices.Contains(of(k), path):
				fired = true
				return errFault
			case fired && !fired2 && j >= 0 && s == step2 && slices.Contains(of(j), path):
				fired2 = true
				return errFault
			}
			return nil
		}
		ws.tools.Store = disk
		r := ws.tools.Edit(context.Background(), docs.EditArgs{Patch: commitPatch(fs)})
		applied := appliedList(r.Text)
		landed := 0
		for _, f := range fs {
			got, ok := ws.get(t, f.target())
			onDisk := ok && bytes.Equal(got, f.new)
			tag, says := applied[f.target()]
			if onDisk != says {
				t.Fatalf("%s: new content on disk %v, reply says applied %v (fault: %s of file %d, then %s of file %d):\n%s", f.target(), onDisk, says, step, k, step2, j, r.Text)
			}
			if says && tag != tagOf(f.new) {
				t.Fatalf("%s applied as #%s, its new bytes are #%s", f.target(), tag, tagOf(f.new))
			}
			if onDisk {
				landed++
			} else if !f.create {
				// Not landed: the user's file is as it was.
				if got, ok := ws.get(t, f.name); !ok || !bytes.Equal(got, f.old) {
					t.Fatalf("%s did not land, and holds %s, not its old %s:\n%s", f.name, short(got), short(f.old), r.Text)
				}
			}
		}
		if r.Failed != (landed == 0) {
			t.Fatalf("%d files landed, Failed=%v:\n%s", landed, r.Failed, r.Text)
		}
		if landed > 0 && (strings.Contains(r.Text, "Nothing was written") || strings.Contains(r.Text, "Nothing of this edit is on disk")) {
			t.Fatalf("%d files landed, yet the reply says nothing was written:\n%s", landed, r.Text)
		}
		if landed < len(fs) && !strings.Contains(r.Text, "NOT applied") {
			t.Fatalf("%d of %d files landed, yet the reply does not say what was NOT applied:\n%s", landed, len(fs), r.Text)
		}
	})
}
