package urls

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/eukhe/eukhe/docs"
)

// CutMiddleText bounds a text the way a read is bounded: past bound bytes
// it keeps whole lines of the head and of the tail, half the bound each,
// and puts in the middle one notice that says what it cut. A first line
// longer than half the bound is itself cut (at a character boundary).
func CutMiddleText(text string, bound int) string {
	if len(text) <= bound {
		return text
	}
	half := bound / 2
	head := 0
	for {
		i := strings.IndexByte(text[head:], '\n')
		if i < 0 || head+i+1 > half {
			break
		}
		head += i + 1
	}
	if head == 0 {
		head = half
		for head > 0 && !utf8.RuneStart(text[head]) {
			head--
		}
	}
	tail := len(text)
	for tail > head {
		start := head + strings.LastIndexByte(text[head:tail-1], '\n') + 1
		if len(text)-start > half {
			break
		}
		tail = start
	}
	mid := text[head:tail]
	var b strings.Builder
	b.WriteString(text[:head])
	if head > 0 && text[head-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[cut: %s (%s) from the middle not shown, over the output bound of %d bytes]\n",
		docs.Count(len(mid), "byte"), docs.Count(strings.Count(mid, "\n"), "line"), bound)
	b.WriteString(text[tail:])
	return b.String()
}
