package docs

import (
	"strconv"
	"strings"
)

// Count is n and a noun in the number n takes, for every message that
// counts: Count(1, "line") is "1 line", Count(2, "line") "2 lines",
// Count(3, "entry") "3 entries", Count(0, "match") "0 matches".
func Count(n int, noun string) string { return strconv.Itoa(n) + " " + Plural(n, noun) }

// Plural is noun as n of it: the noun itself for one, else its English
// plural, taken on the last word before any " with ": "binary file" →
// "binary files", "file with matches" → "files with matches".
func Plural(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	head, rest, with := strings.Cut(noun, " with ")
	if with {
		rest = " with " + rest
	}
	switch {
	case strings.HasSuffix(head, "y") && len(head) > 1 && !strings.ContainsRune("aeiou", rune(head[len(head)-2])):
		return head[:len(head)-1] + "ies" + rest
	case strings.HasSuffix(head, "s"), strings.HasSuffix(head, "x"), strings.HasSuffix(head, "ch"), strings.HasSuffix(head, "sh"):
		return head + "es" + rest
	}
	return head + "s" + rest
}
