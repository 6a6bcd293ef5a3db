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
	q, err := syntax.Quote(word, syntax.LangBash)
	if err != nil {
		// Only a NUL gets here; scripts with one are refused before this.
		return "$" + strconv.Quote(word)
	}
	return q
}

// visibleText is a whole script as the user is shown it: each line kept
// whole, and each character that does not print (but newline and tab)
// replaced by its syntax.Quote escape, such as $'\u202e'.
func visibleText(s string) string {
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
