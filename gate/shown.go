package gate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Visible is one word as the user is shown it: as is when it is plain,
// else quoted by syntax.Quote, which writes every control, bidi,
// zero-width and other non-printing character as a $'…' escape. Bash reads
// the shown word back as the same bytes.
func Visible(word string) string {
	if strings.IndexByte(word, 0) >= 0 && !brokenMarker(word) {
		return visibleWithParams(word)
	}
	if strings.IndexFunc(word, blank) >= 0 || overStacked(word) {
		return ansiC(word)
	}
	q, err := syntax.Quote(word, syntax.LangBash)
	if err != nil {
		// Only a NUL gets here; scripts with one are refused before
		// this, and a runtime marker is shown above.
		return "$" + strconv.Quote(word)
	}
	return q
}

// VisibleText is a whole script as the user is shown it: each line kept
// whole, and each character that does not print (but newline and tab)
// replaced by its syntax.Quote escape, such as $'\u202e'. With Visible
// (one-line fields: a directory, a session, an agent's name) it is the
// one escaper of every question every client shows.
func VisibleText(s string) string {
	var b strings.Builder
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		marks = stackedMarks(marks, r)
		if r == '\n' || r == '\t' || (r != utf8.RuneError && unicode.IsPrint(r) && !blank(r) && marks <= maxStackedMarks) {
			b.WriteString(s[i : i+size])
		} else if marks > maxStackedMarks {
			b.WriteString("$'" + codeEscape(r) + "'")
		} else if blank(r) {
			b.WriteString(ansiC(s[i : i+size]))
		} else {
			b.WriteString(Visible(s[i : i+size]))
		}
		i += size
	}
	return b.String()
}

// blank tells whether r prints as nothing though Go counts it as
// printable (a letter, a mark or a symbol): the Hangul fillers, the
// braille blank, the combining grapheme joiner, the Khmer inherent
// vowels, the Mongolian and other variation selectors. A name made of one
// (U+3164 is a letter to Python) would show as nothing in a question
// (the ipython red team's). Unicode's own list is the base: its default
// ignorable code points that Go prints (Other_Default_Ignorable_Code_Point,
// the variation selectors); beside it what draws as nothing though no
// property says so: the braille blank, the Khitan filler (a mark Python
// takes in a name: the twelfth red team's), the musical null notehead,
// and the Egyptian hieroglyph format controls.
func blank(r rune) bool {
	switch {
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == 0x2800, r == 0x16FE4, r == 0x1D159, r >= 0x13430 && r <= 0x1345F,
		r == 0x1BC9D: // the Duployan thick letter selector: a variant selector by another name (the thirteenth red team's)
		return true
	}
	return false
}

// maxStackedMarks is how many nonspacing marks in a row one letter is
// shown with: more (forty above and forty below: the thirteenth red
// team's) draw over the question's lines next to it, so the rest are
// escaped. Four is more than any script stacks on one letter in use.
const maxStackedMarks = 4

// stackedMarks is the count of nonspacing marks in a row after r, given
// the count before it.
func stackedMarks(before int, r rune) int {
	if unicode.Is(unicode.Mn, r) {
		return before + 1
	}
	return 0
}

// overStacked tells whether s holds more than maxStackedMarks marks in a
// row.
func overStacked(s string) bool {
	marks := 0
	for _, r := range s {
		if marks = stackedMarks(marks, r); marks > maxStackedMarks {
			return true
		}
	}
	return false
}

// ansiC is s in bash's $'…' quoting, each character that does not print
// (or prints as nothing) escaped in syntax.Quote's spelling (\n, \x1b,
// \u3164, \U000e0100), a quote and a backslash escaped: bash reads it
// back as s. For a word syntax.Quote would show a blank character of as is.
func ansiC(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		marks = stackedMarks(marks, r)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString("\\n")
		case r == '\t':
			b.WriteString("\\t")
		case unicode.IsPrint(r) && !blank(r) && marks <= maxStackedMarks:
			b.WriteRune(r)
		default:
			b.WriteString(codeEscape(r))
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// codeEscape is r as $'…' spells it by its code: \x1b, \u3164,
// \U000e0100.
func codeEscape(r rune) string {
	switch {
	case r < 0x80:
		return fmt.Sprintf("\\x%02x", r)
	case r < 0x10000:
		return fmt.Sprintf("\\u%04x", r)
	}
	return fmt.Sprintf("\\U%08x", r)
}

// visibleWithParams shows a word holding runtime markers (env.go): each
// parameter unquoted as $NAME (${NAME} before a letter, digit or _), each
// literal piece between them as Visible shows it. Bash reads the shown
// word back as the word that runs: the parameters' values are digits and
// flags, which neither split nor glob.
func visibleWithParams(word string) string {
	parts := strings.Split(word, "\x00")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 0 {
			if p != "" {
				b.WriteString(Visible(p))
			}
			continue
		}
		next := ""
		if i+1 < len(parts) {
			next = parts[i+1]
		}
		if len(p) > 1 && next != "" && isOptLetter(next[0]) || next != "" && next[0] == '_' {
			b.WriteString("${" + p + "}")
		} else {
			b.WriteString("$" + p)
		}
	}
	return b.String()
}

// shownWord is one word of a step as the user is shown it: an expanded
// word by Visible; a word the gate could not expand as it is written (the
// parser's print of it, which bash reads back as the same code), each
// non-printing character escaped — never quoted, which would show code
// as a literal.
func shownWord(w string, expanded bool) string {
	if expanded {
		return Visible(w)
	}
	return VisibleText(w)
}
