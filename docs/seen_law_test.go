package docs_test

// S8.8, seen lines: edit_only_seen_lines, edit_seen_applies,
// reveal_then_retry, edit_marks_whole_reveal, reject_names_unseen,
// reject_shows_lines, reject_whole_exact, reveal_bounds; and the session's
// persistence.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// seenEdit is a file in a workspace, read in part, and an edit of it.
type seenEdit struct {
	ws      *workspace
	b       []byte
	lines   []refLine
	seen    []int // the lines the read showed
	tag     string
	ops     []docs.Op
	patch   string
	want    []byte // the file after the edit
	anchors []int  // in op order, with repeats
}

// drawSeenEdit writes a UTF-8 file, reads all of it or a random part of
// it, and draws fitting ops on it.
func drawSeenEdit(t *rapid.T, parent string, whole bool) *seenEdit {
	e := &seenEdit{ws: newWorkspace(t, parent)}
	e.b = genFile(t, "file", true, 60)
	_, e.lines = refScan(e.b)
	n := len(e.lines)
	e.ws.put(t, "f.txt", e.b)
	arg := "f.txt"
	if !whole && n > 0 {
		var pick []docs.Range
		for l := 1; l <= n; l++ {
			if rapid.Bool().Draw(t, fmt.Sprintf("see%d", l)) {
				if k := len(pick) - 1; k >= 0 && pick[k].To == l-1 {
					pick[k].To = l
				} else {
					pick = append(pick, docs.Range{From: l, To: l})
				}
			}
		}
		if len(pick) == 0 {
			pick = []docs.Range{{From: n, To: n}}
		}
		arg += ":" + docs.SpellRanges(pick)
	}
	r := e.ws.tools.Read(context.Background(), docs.ReadArgs{Path: arg})
	if r.Failed {
		t.Fatalf("read %s: %s", arg, r.Text)
	}
	e.tag = tagOf(e.b)
	v := e.ws.tools.Session.Knows(e.ws.path("f.txt"), docs.DigestOf(e.b))
	if v == nil {
		t.Fatalf("read %s recorded no version", arg)
	}
	e.seen = lineSetOf(&v.Seen)
	nums, _ := rowsOf(r.Text)
	if !slices.Equal(e.seen, nums) {
		t.Fatalf("seen %v, rows read %v", e.seen, nums)
	}
	if n > 0 && rapid.IntRange(0, 5).Draw(t, "wide") == 0 {
		// One replace over many lines: many anchors at once.
		a := rapid.IntRange(1, n).Draw(t, "wide/a")
		e.ops = []docs.Op{{Kind: docs.OpReplace, A: a, B: n, Lines: []string{"wide"}}}
	} else {
		e.ops = genOps(t, n, true, 5)
	}
	if len(e.ops) == 0 {
		e.ops = []docs.Op{{Kind: docs.OpEnd, Lines: []string{"appended"}}}
	}
	e.patch = "[f.txt#" + e.tag + "]\n" + spellOps(e.ops)
	m, ok := modelApply(n, e.ops)
	if !ok {
		t.Fatalf("drawn ops do not fit: %+v", e.ops)
	}
	e.want = weave(e.b, m.pieces)
	for _, o := range e.ops {
		e.anchors = append(e.anchors, opAnchors(o)...)
	}
	return e
}

func (e *seenEdit) unseen() []int {
	var out []int
	for _, a := range e.anchors {
		if !slices.Contains(e.seen, a) {
			out = append(out, a)
		}
	}
	return out
}

// edit runs the patch and tells whether it applied, checking the file
// holds the edit iff it did.
func (e *seenEdit) edit(t *rapid.T) (docs.Result, bool) {
	r := e.ws.tools.Edit(context.Background(), docs.EditArgs{Patch: e.patch})
	got, _ := e.ws.get(t, "f.txt")
	applied := !r.Failed && strings.HasPrefix(r.Text, "Applied to f.txt#")
	switch {
	case applied && !bytes.Equal(got, e.want):
		t.Fatalf("edit says %q, the file is %s, want %s", r.Text, short(got), short(e.want))
	case !applied && !bytes.Equal(got, e.b):
		t.Fatalf("edit refused (%s), yet the file changed to %s", short(r.Text), short(got))
	case applied && !strings.Contains(r.Text, "f.txt#"+tagOf(e.want)):
		t.Fatalf("reply %q does not name the new tag %s", r.Text, tagOf(e.want))
	case !applied && !r.Failed:
		t.Fatalf("neither applied nor failed: %q", r.Text)
	}
	return r, applied
}

// edit_only_seen_lines: an edit applies only if every anchor is seen.
func TestLaw_edit_only_seen_lines(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		e := drawSeenEdit(t, parent, false)
		r, applied := e.edit(t)
		if applied != (len(e.unseen()) == 0) {
			t.Fatalf("applied=%v with unseen anchors %v (seen %v): %s", applied, e.unseen(), e.seen, short(r.Text))
		}
	})
}

// edit_seen_applies: all anchors seen, the edit applies; after it lands,
// the lines seen before (mapped through the edit) and the lines it wrote
// are seen in the new version.
func TestLaw_edit_seen_applies(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		e := drawSeenEdit(t, parent, rapid.Bool().Draw(t, "whole"))
		if len(e.unseen()) > 0 {
			return // edit_only_seen_lines covers these
		}
		r, applied := e.edit(t)
		if !applied {
			t.Fatalf("every anchor seen, yet: %s", r.Text)
		}
		m, _ := modelApply(len(e.lines), e.ops)
		var want []int
		for _, l := range e.seen {
			if m.mapping[l-1] > 0 {
				want = append(want, m.mapping[l-1])
			}
		}
		want = append(want, m.written...)
		slices.Sort(want)
		nv := e.ws.tools.Session.Knows(e.ws.path("f.txt"), docs.DigestOf(e.want))
		if nv == nil {
			t.Fatalf("the session does not know the version it wrote")
		}
		if got := lineSetOf(&nv.Seen); !slices.Equal(got, slices.Compact(want)) {
			t.Fatalf("seen after the edit %v, want %v", got, want)
		}
	})
}

// wholeReveal is the condition the reveal laws turn on: the rejection
// shows every unseen anchor whole.
func (e *seenEdit) wholeReveal() bool {
	u := e.unseen()
	if len(u) > docs.RevealAnchors {
		return false
	}
	for _, l := range u {
		if runeLen(e.lines[l-1].text) > docs.RevealChars {
			return false
		}
	}
	return true
}

// reveal_then_retry: a rejected edit with ≤ 40 anchors applies on a
// straight retry iff every unseen anchor is a line of ≤ 512 characters.
func TestLaw_reveal_then_retry(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		e := drawSeenEdit(t, parent, false)
		if _, applied := e.edit(t); applied {
			return
		}
		r, applied := e.edit(t)
		if len(e.unseen()) <= docs.RevealAnchors && applied != e.wholeReveal() {
			t.Fatalf("retry applied=%v; unseen anchors %v, shown whole %v: %s", applied, e.unseen(), e.wholeReveal(), short(r.Text))
		}
	})
}

// edit_marks_whole_reveal: unseen anchors become seen iff the rejection
// showed them all whole: ≤ 40, each a line of ≤ 512 characters.
func TestLaw_edit_marks_whole_reveal(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		e := drawSeenEdit(t, parent, false)
		if _, applied := e.edit(t); applied {
			return
		}
		v := e.ws.tools.Session.Knows(e.ws.path("f.txt"), docs.DigestOf(e.b))
		for _, l := range e.unseen() {
			if v.Seen.Has(l) != e.wholeReveal() {
				t.Fatalf("unseen anchor %d seen=%v after the rejection; shown whole %v (unseen %v)", l, v.Seen.Has(l), e.wholeReveal(), e.unseen())
			}
		}
		for l := 1; l <= len(e.lines); l++ {
			if v.Seen.Has(l) && !slices.Contains(e.seen, l) && !slices.Contains(e.unseen(), l) {
				t.Fatalf("line %d became seen without being shown", l)
			}
		}
		if _, applied := e.edit(t); applied != e.wholeReveal() {
			t.Fatalf("retry applied=%v, shown whole %v", applied, e.wholeReveal())
		}
	})
}

// genAnchors draws unseen anchors over two files, in any order.
func genAnchors(t *rapid.T) []docs.Anchor {
	k := rapid.IntRange(1, 90).Draw(t, "k")
	switch rapid.IntRange(0, 2).Draw(t, "few") {
	case 0:
		k = rapid.IntRange(39, 41).Draw(t, "kedge") // right at the reveal bound
	case 1:
		k = rapid.IntRange(1, 45).Draw(t, "kfew")
	}
	longs := rapid.Bool().Draw(t, "longs")
	as := make([]docs.Anchor, k)
	for i := range as {
		path := rapid.SampledFrom([]string{"a.go", "b/c.txt"}).Draw(t, fmt.Sprintf("a%d/path", i))
		as[i] = docs.Anchor{Path: path, Tag: map[string]string{"a.go": "0badf00d", "b/c.txt": "7f3a91c2"}[path],
			Line: rapid.IntRange(1, 60).Draw(t, fmt.Sprintf("a%d/line", i))}
		if longs && rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("a%d/long", i)) == 0 {
			reps := rapid.IntRange(500, 700).Draw(t, fmt.Sprintf("a%d/reps", i))
			if rapid.Bool().Draw(t, fmt.Sprintf("a%d/edge", i)) {
				reps = rapid.IntRange(511, 513).Draw(t, fmt.Sprintf("a%d/edgereps", i))
			}
			as[i].Text = strings.Repeat(rapid.SampledFrom([]string{"a", "é", "世", "😀", "\r"}).Draw(t, fmt.Sprintf("a%d/unit", i)), reps)
		} else if longs {
			as[i].Text = genText(t, fmt.Sprintf("a%d/text", i), true)
		} else {
			as[i].Text = strings.Join(rapid.SliceOfN(rapid.SampledFrom(textPieces), 0, 8).Draw(t, fmt.Sprintf("a%d/pieces", i)), "")
		}
	}
	return as
}

func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// reject_names_unseen: the rejection names exactly the unseen anchors, in
// order.
func TestLaw_reject_names_unseen(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		as := genAnchors(t)
		rej := docs.Reveal(as)
		if !slices.Equal(rej.Unseen, as) {
			t.Fatalf("Unseen %v, want %v", rej.Unseen, as)
		}
		first, _, _ := strings.Cut(rej.Text, "\n")
		head := fmt.Sprintf("Edit NOT applied: it stands on %s this session has not seen: ", docs.Count(len(as), "line"))
		names, ok := strings.CutPrefix(first, head)
		if !ok || !strings.HasSuffix(names, ". Nothing was written.") {
			t.Fatalf("first line %q", first)
		}
		names = strings.TrimSuffix(names, ". Nothing was written.")
		var got []docs.Anchor
		for part := range strings.SplitSeq(names, "; ") {
			path, sel, ok := strings.Cut(part, " ")
			if !ok {
				t.Fatalf("part %q of %q", part, names)
			}
			for _, l := range selectorLines(t, sel) {
				got = append(got, docs.Anchor{Path: path, Line: l})
			}
		}
		if len(got) != len(as) {
			t.Fatalf("names %d anchors, want %d: %q", len(got), len(as), names)
		}
		for i := range as {
			if got[i].Path != as[i].Path || got[i].Line != as[i].Line {
				t.Fatalf("anchor %d named %s %d, want %s %d (%q)", i, got[i].Path, got[i].Line, as[i].Path, as[i].Line, names)
			}
		}
	})
}

// reject_shows_lines: the rejection shows, of its first 40 unseen anchors,
// each line, cut to 512 characters when longer, under its file's header.
func TestLaw_reject_shows_lines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		as := genAnchors(t)
		rej := docs.Reveal(as)
		var rows []string
		header := ""
		var headers []string
		for _, l := range viewLines(rej.Text)[1:] {
			if headerRe.MatchString(l) {
				header = l
				continue
			}
			if rowRe.MatchString(l) {
				rows = append(rows, l)
				headers = append(headers, header)
			}
		}
		shown := as[:min(len(as), docs.RevealAnchors)]
		if len(rows) != len(shown) {
			t.Fatalf("%d rows shown, want %d", len(rows), len(shown))
		}
		for i, a := range shown {
			if want := fmt.Sprintf("%d:%s", a.Line, cutRunes(a.Text, docs.RevealChars)); rows[i] != want {
				t.Fatalf("row %d is %s, want %s", i, short(rows[i]), short(want))
			}
			if want := "[" + a.Path + "#" + a.Tag + "]"; headers[i] != want {
				t.Fatalf("row %d under %q, want %q", i, headers[i], want)
			}
		}
	})
}

// reject_whole_exact: the rejection says it showed its anchors whole iff
// it did.
func TestLaw_reject_whole_exact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		as := genAnchors(t)
		whole := len(as) <= 40
		for _, a := range as {
			whole = whole && runeLen(a.Text) <= 512
		}
		rej := docs.Reveal(as)
		if rej.Whole != whole {
			t.Fatalf("Whole=%v, want %v (%d anchors)", rej.Whole, whole, len(as))
		}
		if says := strings.Contains(rej.Text, "count as seen now"); says != whole {
			t.Fatalf("says seen=%v, whole %v: %s", says, whole, short(rej.Text))
		}
	})
}

// reveal_bounds: the reveal cap is 40 anchors and 512 characters.
func TestLaw_reveal_bounds(t *testing.T) {
	if docs.RevealAnchors != 40 || docs.RevealChars != 512 {
		t.Fatalf("reveal bounds %d anchors, %d characters; the seed says 40 and 512", docs.RevealAnchors, docs.RevealChars)
	}
	rapid.Check(t, func(t *rapid.T) {
		rej := docs.Reveal(genAnchors(t))
		nums, texts := rowsOf(rej.Text)
		if len(nums) > 40 {
			t.Fatalf("%d rows shown", len(nums))
		}
		for i, s := range texts {
			if runeLen(s) > 512 {
				t.Fatalf("row %d shows %d characters", nums[i], runeLen(s))
			}
		}
	})
}

// UnseenAnchors lists exactly the anchors seen lacks, in op order.
func TestUnseenAnchors_in_op_order(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genFile(t, "file", true, 30)
		p := docs.Scan(b)
		ops := genOps(t, len(p.Lines), true, 6)
		var seen docs.LineSet
		for l := 1; l <= len(p.Lines); l++ {
			if rapid.Bool().Draw(t, fmt.Sprintf("seen%d", l)) {
				seen.Add(l)
			}
		}
		var want []docs.Anchor
		for _, o := range ops {
			for _, l := range opAnchors(o) {
				if !seen.Has(l) {
					want = append(want, docs.Anchor{Path: "f", Tag: "t", Line: l, Text: string(p.Text(l))})
				}
			}
		}
		if got := docs.UnseenAnchors(ops, &seen, p, "f", "t"); !slices.Equal(got, want) {
			t.Fatalf("UnseenAnchors = %v, want %v", got, want)
		}
	})
}

// A session persists (eukhe tool --session FILE): digests, line hashes
// and seen lines survive a round trip, in order.
func TestSession_persists(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := docs.NewSession()
		for _, path := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"/w/a.go", "/w/b c.txt", "/w/é/d"}), 0, 3, rapid.ID[string]).Draw(t, "paths") {
			for i := range rapid.IntRange(1, docs.VersionsKept).Draw(t, path+"/versions") {
				v := &docs.Version{
					Digest: docs.Digest(rapid.Uint64().Draw(t, fmt.Sprintf("%s/%d/digest", path, i))),
					Lines:  rapid.SliceOfN(rapid.Uint64(), 0, 20).Draw(t, fmt.Sprintf("%s/%d/lines", path, i)),
				}
				for j := range rapid.IntRange(0, 8).Draw(t, fmt.Sprintf("%s/%d/runs", path, i)) {
					a := rapid.IntRange(1, 200).Draw(t, fmt.Sprintf("%s/%d/run%d/a", path, i, j))
					v.Seen.AddRange(a, a+rapid.IntRange(0, 30).Draw(t, fmt.Sprintf("%s/%d/run%d/len", path, i, j)))
				}
				s.Files[path] = append(s.Files[path], v)
			}
		}
		blob, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back := docs.NewSession()
		if err := json.Unmarshal(blob, back); err != nil {
			t.Fatalf("unmarshal %s: %v", blob, err)
		}
		if len(back.Files) != len(s.Files) {
			t.Fatalf("%d files back, want %d", len(back.Files), len(s.Files))
		}
		for path, vs := range s.Files {
			bvs := back.Files[path]
			if len(bvs) != len(vs) {
				t.Fatalf("%s: %d versions back, want %d", path, len(bvs), len(vs))
			}
			for i, v := range vs {
				if bvs[i].Digest != v.Digest || !slices.Equal(bvs[i].Lines, v.Lines) || !slices.Equal(lineSetOf(&bvs[i].Seen), lineSetOf(&v.Seen)) {
					t.Fatalf("%s version %d: back %x %v %v, want %x %v %v", path, i, bvs[i].Digest, bvs[i].Lines, lineSetOf(&bvs[i].Seen), v.Digest, v.Lines, lineSetOf(&v.Seen))
				}
			}
		}
	})
}

// A session keeps at most the last 8 versions of a file; seeing a version
// again makes it the newest; the round trip keeps them.
func TestSession_keeps_last_8_versions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := docs.NewSession()
		var model []docs.Digest
		for i := range rapid.IntRange(1, 40).Draw(t, "sees") {
			d := docs.Digest(rapid.IntRange(1, 14).Draw(t, fmt.Sprintf("see%d", i)))
			s.Saw("/w/f", docs.Scan([]byte(fmt.Sprintf("v%d\n", d))), d)
			model = slices.DeleteFunc(model, func(x docs.Digest) bool { return x == d })
			model = append(model, d)
			if len(model) > 8 {
				model = model[len(model)-8:]
			}
			var got []docs.Digest
			for _, v := range s.Files["/w/f"] {
				got = append(got, v.Digest)
			}
			if !slices.Equal(got, model) {
				t.Fatalf("versions %v, want %v", got, model)
			}
		}
		blob, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back := docs.NewSession()
		if err := json.Unmarshal(blob, back); err != nil {
			t.Fatal(err)
		}
		if len(back.Files["/w/f"]) != len(model) {
			t.Fatalf("%d versions back, want %d", len(back.Files["/w/f"]), len(model))
		}
	})
}

// A session that went through a file keeps working: read, persist, load
// into a new process, then edit at the lines read.
func TestSession_persisted_read_then_edit(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		e := drawSeenEdit(t, parent, rapid.Bool().Draw(t, "whole"))
		blob, err := json.Marshal(e.ws.tools.Session)
		if err != nil {
			t.Fatal(err)
		}
		e.ws.tools.Session = docs.NewSession()
		if err := json.Unmarshal(blob, e.ws.tools.Session); err != nil {
			t.Fatal(err)
		}
		r, applied := e.edit(t)
		if applied != (len(e.unseen()) == 0) {
			t.Fatalf("after a session round trip: applied=%v, unseen %v: %s", applied, e.unseen(), short(r.Text))
		}
	})
}
