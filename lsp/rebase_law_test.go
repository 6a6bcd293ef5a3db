package lsp

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The red team's laws over the pure parts of rebase under typing (merged)
// and undo under typing (follow, revert, undone), on texts that make the
// line diff guess: lines that repeat, CRLF, no final newline, tabs, astral
// characters. The user's lines carry a mark ("U…") and the agent's
// another ("A…"), so what each typed can be counted after the merge
// whatever line the diff took for whose.

// lawText draws a text of lines from a small alphabet (so lines repeat),
// with one line ending and, maybe, no final newline.
func lawText(t *rapid.T) (ls []string, eol string) {
	eol = rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "eol")
	kinds := rapid.SampledFrom([][]string{
		{"x", "y"},
		{"x", "\tx", "😀 y", ""},
		{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"},
	}).Draw(t, "alphabet")
	n := rapid.IntRange(0, 10).Draw(t, "lines")
	for range n {
		ls = append(ls, rapid.SampledFrom(kinds).Draw(t, "line")+eol)
	}
	if n > 0 && rapid.Bool().Draw(t, "no final newline") {
		ls[n-1] = strings.TrimSuffix(ls[n-1], eol)
	}
	return ls, eol
}

// markedEdits changes ls by 1 to 3 edits one after the other: whole lines
// replaced, inserted or deleted, or typing inside a line (at its start or
// just before its ending); every line it writes carries mark and a number
// of its own.
func markedEdits(t *rapid.T, ls []string, eol, mark string, seq *int) []string {
	ls = slices.Clone(ls)
	for range rapid.IntRange(1, 3).Draw(t, mark+" edits") {
		*seq++
		switch kind := rapid.IntRange(0, 2).Draw(t, mark+" kind"); {
		case kind == 2 && len(ls) > 0: // typing inside a line
			i := rapid.IntRange(0, len(ls)-1).Draw(t, mark+" typed line")
			l := ls[i]
			body, end := l, ""
			for _, e := range []string{"\r\n", "\n"} {
				if b, ok := strings.CutSuffix(l, e); ok {
					body, end = b, e
					break
				}
			}
			typed := fmt.Sprintf("%s%d ", mark, *seq)
			if rapid.Bool().Draw(t, mark+" at the end") {
				ls[i] = body + typed + end
			} else {
				ls[i] = typed + body + end
			}
		default:
			at := rapid.IntRange(0, len(ls)).Draw(t, mark+" at")
			n := rapid.IntRange(0, min(2, len(ls)-at)).Draw(t, mark+" n")
			k := rapid.IntRange(0, 2).Draw(t, mark+" new lines")
			if n == 0 && k == 0 {
				k = 1
			}
			var repl []string
			for j := range k {
				repl = append(repl, fmt.Sprintf("%s%d.%d%s", mark, *seq, j, eol))
			}
			if at == len(ls) && at > 0 && !strings.HasSuffix(ls[at-1], "\n") {
				// appending after a last line without newline: that
				// line gets one (as an editor does), and is changed
				ls[at-1] += eol
			}
			ls = slices.Concat(ls[:at], repl, ls[at+n:])
		}
	}
	return ls
}

// markedLines is the lines of b that hold mark, in order.
func markedLines(b []byte, mark string) []string {
	var out []string
	for _, l := range lines(b) {
		if bytes.Contains(l, []byte(mark)) {
			out = append(out, string(l))
		}
	}
	return out
}

// lineCounts counts the lines of b that hold no mark.
func lineCounts(b []byte) map[string]int {
	m := map[string]int{}
	for _, l := range lines(b) {
		if !bytes.Contains(l, []byte("U")) && !bytes.Contains(l, []byte("A")) {
			m[string(l)]++
		}
	}
	return m
}

// A rebased edit keeps every line the user typed, once and in order, and
// lands every line of the edit, once and in order; the lines neither
// wrote are the old text's, less those either took out (as whole lines:
// a CRLF, a missing final newline, a tab or an astral character is kept
// byte for byte). Where the diff cannot tell, it refuses: never a guess
// that loses or doubles a line.
func TestLaw_a_rebased_edit_keeps_every_byte_the_user_typed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, eol := lawText(t)
		seq := 0
		to := markedEdits(t, base, eol, "A", &seq)
		cur := markedEdits(t, base, eol, "U", &seq)
		from, toB, curB := []byte(strings.Join(base, "")), []byte(strings.Join(to, "")), []byte(strings.Join(cur, ""))
		got, ok := merged(toB, from, curB)
		if !ok {
			return
		}
		if g, w := markedLines(got, "U"), markedLines(curB, "U"); !slices.Equal(g, w) {
			t.Fatalf("the user's lines %q became %q\nfrom %q\nedit %q\nuser %q\nmerged %q", w, g, from, toB, curB, got)
		}
		if g, w := markedLines(got, "A"), markedLines(toB, "A"); !slices.Equal(g, w) {
			t.Fatalf("the edit's lines %q became %q\nfrom %q\nedit %q\nuser %q\nmerged %q", w, g, from, toB, curB, got)
		}
		want := lineCounts(curB)
		for l, n := range lineCounts(toB) {
			want[l] += n
		}
		for l, n := range lineCounts(from) {
			want[l] -= n
		}
		maps := lineCounts(got)
		for l, n := range want {
			if maps[l] != n {
				t.Fatalf("line %q: %d in the merge, want %d\nfrom %q\nedit %q\nuser %q\nmerged %q", l, maps[l], n, from, toB, curB, got)
			}
		}
	})
}

// An undo after typing never removes or changes a byte the user typed:
// the user's lines are all there, in order; the undone hunks' text is
// gone and their old text is back, exactly; a hunk that still stands is
// the text the edit left there (never a half-undone one). Two rounds:
// typing, an undo, more typing, another undo (undone's bookkeeping).
func TestLaw_an_undo_after_typing_never_removes_the_users_bytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, eol := lawText(t)
		seq := 0
		before := []byte(strings.Join(base, ""))
		afterLs := markedEdits(t, base, eol, "A", &seq)
		after := []byte(strings.Join(afterLs, ""))
		b := newReviewBook()
		f := &reviewFile{path: "/f", after: bytes.Clone(after)}
		origAfter := map[int][]byte{}
		for k, h := range hunks(before, after) {
			f.hunks = append(f.hunks, reviewHunk{index: k, at: h.newAt, end: h.newEnd, before: bytes.Clone(before[h.oldAt:h.oldEnd])})
			origAfter[k] = bytes.Clone(after[h.newAt:h.newEnd])
		}
		if len(f.hunks) == 0 {
			return
		}
		e := b.add([]*reviewFile{f})
		text := after
		for round := range 2 {
			if len(f.hunks) == 0 {
				return
			}
			curLs := markedEdits(t, lines2(text), eol, "U", &seq)
			cur := []byte(strings.Join(curLs, ""))
			if !bytes.Equal(cur, f.after) {
				b.follow(f, cur)
			}
			if !bytes.Equal(f.after, cur) {
				t.Fatalf("follow left after %q, the text is %q", f.after, cur)
			}
			for _, h := range f.hunks {
				if !h.typed && !bytes.Equal(cur[h.at:h.end], origAfter[h.index]) {
					t.Fatalf("round %d: hunk %d not marked typed stands at %d–%d as %q, the edit left %q\ntext %q", round, h.index, h.at, h.end, cur[h.at:h.end], origAfter[h.index], cur)
				}
			}
			var ks []int
			for k, h := range f.hunks {
				if !h.typed && rapid.Bool().Draw(t, "undo it") {
					ks = append(ks, k)
				}
			}
			if len(ks) == 0 {
				return
			}
			got := f.revert(ks)
			if g, w := markedLines(got, "U"), markedLines(cur, "U"); !slices.Equal(g, w) {
				t.Fatalf("round %d: the undo took the user's lines %q to %q\ntext %q\nundone %q", round, w, g, cur, got)
			}
			want := lineCounts(cur)
			wantA := slices.Clone(markedLines(cur, "A"))
			for _, k := range ks {
				h := f.hunks[k]
				for l, n := range lineCounts(origAfter[h.index]) {
					want[l] -= n
				}
				for l, n := range lineCounts(h.before) {
					want[l] += n
				}
				for _, l := range markedLines(origAfter[h.index], "A") {
					i := slices.Index(wantA, l)
					if i < 0 {
						t.Fatalf("round %d: hunk %d's line %q is not in the text %q", round, h.index, l, cur)
					}
					wantA = slices.Delete(wantA, i, i+1)
				}
			}
			if g := markedLines(got, "A"); !slices.Equal(g, wantA) {
				t.Fatalf("round %d: the edit's lines after the undo %q, want %q\ntext %q\nundone %q", round, g, wantA, cur, got)
			}
			gotN := lineCounts(got)
			for l, n := range want {
				if gotN[l] != n {
					t.Fatalf("round %d: line %q: %d after the undo, want %d\ntext %q\nundone %q", round, l, gotN[l], n, cur, got)
				}
			}
			b.undone(e, f, ks, got)
			text = got
		}
	})
}

// lines2 is lines as strings.
func lines2(b []byte) []string {
	var out []string
	for _, l := range lines(b) {
		out = append(out, string(l))
	}
	return out
}

// A refusal of a rebase names only what happened: the lines it says the
// user changed are lines the user changed (and, when it says the edit
// replaces them, the edit's too); lines it says the user added are where
// the user added them; the edit's lines are the edit's; no line past the
// end.
func TestLaw_a_refusal_names_only_lines_the_user_changed(t *testing.T) {
	span := regexp.MustCompile(`^(?:line (\d+)|lines (\d+)–(\d+))$`)
	parse := func(t *rapid.T, s string) (int, int) {
		m := span.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("not a line span: %q", s)
		}
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			return n, n
		}
		a, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[3])
		return a, b
	}
	within := func(a, b int, e lineEdit) bool { return e.n > 0 && a >= e.at+1 && b <= e.at+e.n }
	rapid.Check(t, func(t *rapid.T) {
		nl := rapid.IntRange(1, 8).Draw(t, "lines")
		base := make([]string, nl)
		for i := range base {
			base[i] = fmt.Sprintf("line %d\n", i)
		}
		agent := drawEdit(t, base, "agent")
		user := drawEdit(t, base, "user")
		from := []byte(strings.Join(base, ""))
		to := []byte(strings.Join(agent.on(base), ""))
		cur := []byte(strings.Join(user.on(base), ""))
		if _, ok := merged(to, from, cur); ok {
			return
		}
		msg := touchedLines(from, to, cur, "a.txt")
		if s, ok := strings.CutSuffix(msg, " of a.txt, which this edit replaces"); ok {
			a, b := parse(t, strings.TrimPrefix(s, "changed "))
			if !within(a, b, user) || !within(a, b, agent) {
				t.Fatalf("%q: agent %+v, user %+v", msg, agent, user)
			}
			return
		}
		u, ed, ok := strings.Cut(msg, " of a.txt, next to ")
		if !ok {
			t.Fatalf("%q", msg)
		}
		switch {
		case strings.HasPrefix(u, "changed "):
			if a, b := parse(t, strings.TrimPrefix(u, "changed ")); !within(a, b, user) {
				t.Fatalf("%q: the user did not change those lines: agent %+v, user %+v", msg, agent, user)
			}
		case u == "added lines at the end":
			if user.n != 0 || user.at != nl {
				t.Fatalf("%q: agent %+v, user %+v", msg, agent, user)
			}
		default:
			var k int
			if _, err := fmt.Sscanf(u, "added lines before line %d", &k); err != nil || user.n != 0 || user.at+1 != k {
				t.Fatalf("%q: agent %+v, user %+v", msg, agent, user)
			}
		}
		switch {
		case strings.HasSuffix(ed, ", which this edit replaces"):
			if a, b := parse(t, strings.TrimSuffix(ed, ", which this edit replaces")); !within(a, b, agent) {
				t.Fatalf("%q: the edit does not replace those lines: agent %+v, user %+v", msg, agent, user)
			}
		case ed == "the end, where this edit adds lines":
			if agent.n != 0 || agent.at != nl {
				t.Fatalf("%q: agent %+v, user %+v", msg, agent, user)
			}
		default:
			var k int
			if _, err := fmt.Sscanf(ed, "where this edit adds lines (before line %d)", &k); err != nil || agent.n != 0 || agent.at+1 != k {
				t.Fatalf("%q: agent %+v, user %+v", msg, agent, user)
			}
		}
	})
}
