package gate

import (
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
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\n' || r == '\t' || (r != utf8.RuneError && unicode.IsPrint(r)) {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteString(Visible(s[i : i+size]))
		}
		i += size
	}
	return b.String()
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
