package lsp

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The laws of rebase and undo under typing, end to end through the
// in-process editor (VS Code, Neovim with its debounce, a per-document
// client): the user types (whole lines, inside lines) before the edit is
// applied, after it, and while its undo is applied; each keystroke run
// carries a mark <Un>, each line of the edit <An>. Whatever eukhe
// decides, every mark the user typed is in the buffer exactly once, and
// the reply is exactly true: "Applied" means every line of the edit is
// there once, "NOT applied" that none is; an undo that says it applied
// took exactly its hunks' lines out, one that says it did not took none.

// userTypes is 0 to 2 keystroke runs of the user, each marked.
func userTypes(t *rapid.T, e *fakeEditor, name string, seq *int, label string) {
	for range rapid.IntRange(0, 2).Draw(t, label+" runs") {
		*seq++
		mark := fmt.Sprintf("<U%d>", *seq)
		ls := strings.Split(e.buf(name), "\n")
		line := rapid.IntRange(0, len(ls)-1).Draw(t, label+" line")
		switch rapid.IntRange(0, 2).Draw(t, label+" where") {
		case 0:
			e.typeAt(name, uint32(line), 0, mark)
		case 1:
			e.typeAt(name, uint32(line), 0, mark+"\n")
		default:
			e.typeAt(name, uint32(line), units(e, strings.TrimSuffix(ls[line], "\r")), mark)
		}
		if e.opts.debounce {
			e.flush(name)
		}
	}
}

// marks is the marks of kind k ("U" or "A") in text, in order.
func marks(text, k string) []string {
	var out []string
	for {
		i := strings.Index(text, "<"+k)
		if i < 0 {
			return out
		}
		j := strings.Index(text[i:], ">")
		out = append(out, text[i:i+j+1])
		text = text[i+j+1:]
	}
}

// typedOnce fails unless every mark the user typed so far (1..seq) is in
// text exactly once.
func typedOnce(t *rapid.T, text string, seq int, when string) {
	got := marks(text, "U")
	for i := 1; i <= seq; i++ {
		if n := strings.Count(text, fmt.Sprintf("<U%d>", i)); n != 1 {
			t.Fatalf("%s: the user's <U%d> is in the buffer %d times: %q (marks %v)", when, i, n, text, got)
		}
	}
}

func TestLaw_the_users_typing_survives_rebase_and_undo_and_the_reply_is_true(t *testing.T) {
	// each check is an editor and waits out landings: a quarter of the
	// checks asked for (-rapid.checks, 100 by default) keeps it near 6 s
	if f := flag.Lookup("rapid.checks"); f != nil {
		was := f.Value.String()
		if n, err := strconv.Atoi(was); err == nil {
			_ = f.Value.Set(strconv.Itoa(max(n/4, 5)))
			defer func() { _ = f.Value.Set(was) }()
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		mode := rapid.SampledFrom([]string{"VS Code", "Neovim", "per document"}).Draw(rt, "editor")
		o := editorOpts{reviews: true, wait: 300 * time.Millisecond, transactional: mode == "VS Code", debounce: mode == "Neovim"}
		e := newEditor(t, o)
		eol := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(rt, "eol")
		n := rapid.IntRange(2, 6).Draw(rt, "lines")
		var base strings.Builder
		for range n {
			base.WriteString(rapid.SampledFrom([]string{"x", "y", "z"}).Draw(rt, "line") + eol)
		}
		tag := oneFile(t, e, "a.txt", base.String())
		var patch strings.Builder
		fmt.Fprintf(&patch, "[a.txt#%s]\n", tag)
		aseq := 0
		for l := 1; l <= n; l++ {
			if rapid.Bool().Draw(rt, "edit line") {
				fmt.Fprintf(&patch, "@@ %d\n", l)
				for range rapid.IntRange(1, 2).Draw(rt, "new lines") {
					aseq++
					fmt.Fprintf(&patch, "+<A%d>\n", aseq)
				}
			}
		}
		if aseq == 0 {
			return
		}
		seq := 0
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == 1 {
					userTypes(rt, e, "a.txt", &seq, "before the apply")
				}
			}
		})
		got := e.tool("edit", map[string]any{"patch": patch.String()})
		e.set(func(e *fakeEditor) { e.beforeApply = nil })
		time.Sleep(30 * time.Millisecond) // a late didChange of the debounce
		buf := e.buf("a.txt")
		typedOnce(rt, buf, seq, "after the edit")
		as := marks(buf, "A")
		switch {
		case strings.HasPrefix(got.Text, "Applied to a.txt"):
			if len(as) != aseq || !slices.IsSorted(as) && aseq < 10 {
				rt.Fatalf("reply Applied, the edit's lines in the buffer: %v of %d: %q\n%s", as, aseq, buf, got.Text)
			}
		case strings.HasPrefix(got.Text, "NOT applied"):
			if len(as) != 0 {
				rt.Fatalf("reply NOT applied, the edit's lines in the buffer: %v: %q\n%s", as, buf, got.Text)
			}
			return
		default:
			return // not confirmed: nothing is claimed
		}
		r := e.lastReview()
		userTypes(rt, e, "a.txt", &seq, "after the edit")
		e.mu.Lock()
		calls := e.applyCalls
		e.mu.Unlock()
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == calls+1 {
					userTypes(rt, e, "a.txt", &seq, "during the undo")
				}
			}
		})
		k := -1
		if rapid.Bool().Draw(rt, "one hunk") {
			k = rapid.SampledFrom(r.Hunks).Draw(rt, "hunk").Hunk
		}
		before := marks(e.buf("a.txt"), "A")
		res := undoHunk(e, r, "a.txt", k)
		time.Sleep(30 * time.Millisecond)
		buf = e.buf("a.txt")
		typedOnce(rt, buf, seq, "after the undo")
		var out []string
		for _, h := range r.Hunks {
			if k < 0 || h.Hunk == k {
				out = append(out, marks(h.After, "A")...)
			}
		}
		want := before
		if res.Applied {
			want = slices.DeleteFunc(slices.Clone(before), func(m string) bool { return slices.Contains(out, m) })
		}
		if g := marks(buf, "A"); !slices.Equal(g, want) {
			rt.Fatalf("undo %+v of hunk %d: the edit's lines %v, want %v: %q", res, k, g, want, buf)
		}
	})
}
