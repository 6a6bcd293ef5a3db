package docs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// LineMatcher finds the lines of a text that a pattern matches, one line
// at a time, as read numbers them. A literal every match must hold (from the
// parsed regexp) is found first with bytes.Index, and the regexp runs only
// on the lines that hold it: the stdlib engine is fast on literals, slow on
// everything else.
type LineMatcher struct {
	re   *regexp.Regexp
	lit  []byte // a literal every match holds; nil for none
	fold bool   // lit is ASCII and matched without regard to case (lit is lower case)
}

// NewLineMatcher compiles a grep pattern (Go RE2 syntax, or a literal). RE2
// runs in time linear in the text: no pattern can take unbounded time.
func NewLineMatcher(pattern string, literal, ignoreCase bool) (*LineMatcher, error) {
	if pattern == "" {
		return nil, fmt.Errorf("grep needs a pattern")
	}
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("the pattern is not a valid regular expression (Go RE2 syntax): %v; for a plain string, set literal", describeSyntaxError(err, expr))
	}
	if strings.ContainsRune(pattern, '\n') || hasNewline(tree) {
		return nil, fmt.Errorf("the pattern can only match a line break, and grep matches one line at a time: search for the lines separately")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("the pattern is not a valid regular expression (Go RE2 syntax): %v", err)
	}
	m := &LineMatcher{re: re}
	if lit, fold := requiredLiteral(tree.Simplify()); len(lit) > 0 {
		switch {
		case !fold:
			m.lit = []byte(lit)
		case isASCII(lit):
			m.lit, m.fold = []byte(strings.ToLower(lit)), true
		}
	}
	return m, nil
}

func describeSyntaxError(err error, expr string) string {
	if se, ok := err.(*syntax.Error); ok {
		if i := strings.Index(expr, se.Expr); i >= 0 && se.Expr != "" {
			return fmt.Sprintf("%s at character %d (%q)", se.Code, utf8.RuneCountInString(expr[:i])+1, se.Expr)
		}
		return se.Code.String()
	}
	return err.Error()
}

func hasNewline(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	}
	for _, s := range re.Sub {
		if hasNewline(s) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// requiredLiteral is the longest literal that every match of re holds.
func requiredLiteral(re *syntax.Regexp) (lit string, fold bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			l, f := requiredLiteral(s)
			// Prefer a case-sensitive literal; then the longer one.
			if l != "" && (lit == "" || (fold && !f) || (fold == f && len(l) > len(lit))) {
				lit, fold = l, f
			}
		}
	}
	return lit, fold
}

// Each calls f with the number of each matching line of src (after its
// BOM), in order, and the line's text; it stops when f returns false.
func (m *LineMatcher) Each(src []byte, f func(line int, text []byte) bool) {
	body := bytes.TrimPrefix(src, BOM)
	if m.lit == nil {
		n := 0
		for len(body) > 0 {
			n++
			text, rest := cutLine(body)
			if m.re.Match(text) && !f(n, text) {
				return
			}
			body = rest
		}
		return
	}
	hay := body
	if m.fold {
		bp := foldPool.Get().(*[]byte)
		hay = lowerASCII((*bp)[:0], body)
		defer func() { putPooled(&foldPool, bp, hay) }()
	}
	line, counted, pos := 1, 0, 0
	for pos < len(hay) {
		i := bytes.Index(hay[pos:], m.lit)
		if i < 0 {
			return
		}
		at := pos + i
		start := bytes.LastIndexByte(body[:at], '\n') + 1
		line += bytes.Count(body[counted:start], []byte{'\n'})
		counted = start
		text, _ := cutLine(body[start:])
		end := start + len(text)
		if m.re.Match(text) && !f(line, text) {
			return
		}
		// Go on after this line's ending.
		if nl := bytes.IndexByte(body[end:], '\n'); nl >= 0 {
			pos = end + nl + 1
		} else {
			return
		}
	}
}

// cutLine is the text of the first line (without its ending) and the rest
// after its ending.
func cutLine(b []byte) (text, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	text, rest = b[:i], b[i+1:]
	if len(text) > 0 && text[len(text)-1] == '\r' {
		text = text[:len(text)-1]
	}
	return text, rest
}

var foldPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// lowerASCII appends b with ASCII letters in lower case to out: the same
// length, so offsets in it are offsets in b.
func lowerASCII(out, b []byte) []byte {
	out = slices.Grow(out, len(b))[:len(b)]
	i := 0
	// Eight bytes at a time: a byte is upper case when its high bit is
	// clear and it lies in 'A'..'Z'; adding 0x20 lowers it.
	const hi, lo7 = 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		h := x & lo7
		geA := h + 0x3f3f3f3f3f3f3f3f // high bit set where byte >= 'A'
		gtZ := h + 0x2525252525252525 // high bit set where byte > 'Z'
		upper := geA &^ gtZ &^ x & hi
		binary.LittleEndian.PutUint64(out[i:], x|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
