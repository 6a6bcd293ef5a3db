package docs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The reveal bounds (reveal_bounds): a rejection shows at most 40 unseen
// anchors, each cut to 512 characters.
const (
	RevealAnchors = 40
	RevealChars   = 512
)

// Anchor is a line an edit stands on, in the version its section's tag
// names, with that line's text and the file's display header.
type Anchor struct {
	Path string // as the model named it
	Tag  string
	Line int
	Text string
}

// Rejection is the seen guard's refusal (S8.8).
type Rejection struct {
	Unseen []Anchor // exactly the unseen anchors, in order (reject_names_unseen)
	Whole  bool     // it showed them all, each whole (reject_whole_exact)
	Text   string
}

// Reveal decides the rejection of an edit whose anchors include unseen
// lines: it names them all, shows the first 40 (reject_shows_lines), each
// cut to 512 characters, and says they now count as seen iff it showed
// every one whole (edit_marks_whole_reveal), so a straight retry applies
// (reveal_then_retry).
func Reveal(unseen []Anchor) Rejection {
	r := Rejection{Unseen: unseen, Whole: len(unseen) <= RevealAnchors}
	var b strings.Builder
	fmt.Fprintf(&b, "Edit NOT applied: it stands on %s this session has not seen: %s. Nothing was written.\n", Count(len(unseen), "line"), nameAnchors(unseen))
	header := ""
	for i, a := range unseen {
		if i == RevealAnchors {
			break
		}
		if h := "[" + a.Path + "#" + a.Tag + "]"; h != header {
			header = h
			b.WriteString(h + "\n")
		}
		text, cutAt := a.Text, 0
		if utf8.RuneCountInString(text) > RevealChars {
			r.Whole = false
			cutAt = runeOffset(text, RevealChars)
			text = text[:cutAt]
		}
		fmt.Fprintf(&b, "%d:%s\n", a.Line, text)
		if cutAt > 0 {
			fmt.Fprintf(&b, "[line %d cut at %d characters; read %s:%d to see it whole]\n", a.Line, RevealChars, a.Path, a.Line)
		}
	}
	switch {
	case r.Whole:
		b.WriteString("[these lines are shown whole and count as seen now: check them, then retry the same edit]\n")
	case len(unseen) > RevealAnchors:
		fmt.Fprintf(&b, "[%d more not shown; read those lines, then retry]\n", len(unseen)-RevealAnchors)
	default:
		b.WriteString("[a line was cut, so none count as seen yet: read the cut lines, then retry]\n")
	}
	r.Text = b.String()
	return r
}

func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

func nameAnchors(as []Anchor) string {
	var parts []string
	for i := 0; i < len(as); {
		j := i
		var ls []int
		for j < len(as) && as[j].Path == as[i].Path {
			ls = append(ls, as[j].Line)
			j++
		}
		parts = append(parts, as[i].Path+" "+strings.TrimPrefix(strings.TrimPrefix(spellLines(ls), "lines "), "line "))
		i = j
	}
	return strings.Join(parts, "; ")
}

// UnseenAnchors lists, in op order, the anchors of ops that seen lacks.
func UnseenAnchors(ops []Op, seen *LineSet, p Projection, path, tag string) []Anchor {
	var out []Anchor
	for _, o := range ops {
		a, b := o.Anchors()
		for ln := a; ln <= b; ln++ {
			if !seen.Has(ln) {
				out = append(out, Anchor{Path: path, Tag: tag, Line: ln, Text: string(p.Text(ln))})
			}
		}
	}
	return out
}
