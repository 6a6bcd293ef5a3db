package docs

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultReadBound is the output bound of a read, in bytes of rows: past it
// the middle of the result is cut and a notice says how to read it.
const DefaultReadBound = 64 << 10

// ReadGate is the refusal of a read that is not raw (rows_gate_refuses):
// a non-UTF-8 file first, then a binary one. "" lets the read go on. A
// file with a NUL byte and no UTF-16/32 BOM is binary, as grep counts it,
// whether or not its other bytes are UTF-8: it is named binary, never an
// 8-bit encoding to convert.
func ReadGate(path string, src []byte) string {
	if note := BinaryNote(path, src); note != "" {
		return note
	}
	if enc := Encoding(src); enc != "" {
		return fmt.Sprintf("[%s is %s, not UTF-8: it has no rows or tag. Read it raw, or convert it with bash (iconv -f %s -t UTF-8).]",
			path, enc, iconvName(enc))
	}
	return ""
}

// BinaryNote is what read says of a binary file — one with a NUL byte
// that no UTF-16/32 BOM explains — raw or not: its size, where the first
// NUL is, its first bytes in hex, and how to look inside; "" for a file
// that is not binary. A raw read of a binary file refuses with it rather
// than send the model bytes as text.
func BinaryNote(path string, src []byte) string {
	nul := bytes.IndexByte(src, 0)
	if nul < 0 || strings.HasPrefix(Encoding(src), "UTF-") {
		return ""
	}
	head := src[:min(len(src), 16)]
	hex := make([]string, len(head))
	for i, c := range head {
		hex[i] = fmt.Sprintf("%02x", c)
	}
	more := ""
	if len(src) > len(head) {
		more = " …"
	}
	return fmt.Sprintf("[%s is a binary file, not UTF-8 text: %s, a NUL byte at byte %d; it has no rows or tag, and read shows no text of it, raw or not. First bytes: %s%s. Inspect it with bash (file %s; xxd %s | head).]",
		path, Count(len(src), "byte"), nul, strings.Join(hex, " "), more, path, path)
}

// Encoding names the encoding of bytes that are not UTF-8; "" for UTF-8.
// UTF-16 and UTF-32 are named from their BOM.
func Encoding(src []byte) string {
	switch {
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32 LE"
	case bytes.HasPrefix(src, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32 BE"
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return "UTF-16 LE"
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return "UTF-16 BE"
	}
	if utf8.Valid(src) {
		return ""
	}
	bad := firstInvalid(src)
	line := bytes.Count(src[:bad], []byte{'\n'}) + 1
	return fmt.Sprintf("an unknown 8-bit encoding (byte 0x%02X at line %d is not UTF-8; perhaps Latin-1 or Windows-1252)", src[bad], line)
}

func iconvName(enc string) string {
	switch {
	case strings.HasPrefix(enc, "UTF-"):
		return strings.ReplaceAll(enc, " ", "")
	}
	return "WINDOWS-1252"
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return 0
}

// ViewRequest is everything a read view depends on.
type ViewRequest struct {
	Path    string     // as the model named it
	P       Projection // the bytes read
	Tag     string     // "" when the file has no tag (over the limit)
	Ranges  []Range    // merged (MergeRanges); nil shows the whole file
	Raw     bool       // text without row numbers; rows are not anchors
	Bound   int        // bytes of rows; 0 means DefaultReadBound
	Notices []string   // said before the rows, each a whole notice
	NoTail  bool       // no "N lines in all" notice after the last span (grep)
}

// View is a read's text and the rows that reached the model (S8.8: only
// those count as seen).
type View struct {
	Text  string
	Shown LineSet
	// Cut tells that the bound cut the middle of the rows.
	Cut bool
}

type item struct {
	line int    // > 0: a row; 0: a marker or notice
	text string // the whole printed line, newline included
}

// Render shows a read (rows_view_shows): the header, the notices, the spans
// with a gap marker before every span but the first that does not start
// right after the span before (rows_gap_marks_every_jump; raw: every later
// span), and, past the bound, the middle cut with a notice that says how to
// read it.
func Render(r ViewRequest) View {
	bound := r.Bound
	if bound <= 0 {
		bound = DefaultReadBound
	}
	n := len(r.P.Lines)
	spans := r.Ranges
	if spans == nil && n > 0 {
		spans = []Range{{1, n}}
	}
	var out strings.Builder
	out.WriteString(Header(r.Path, r.Tag, r.Raw))
	for _, s := range r.Notices {
		out.WriteString(s + "\n")
	}
	if n == 0 {
		out.WriteString("[empty file]\n")
		return View{Text: out.String()}
	}
	var items []item
	rowBytes := 0
	for i, s := range spans {
		if i > 0 && (r.Raw || s.From != spans[i-1].To+1) {
			items = append(items, item{text: gapMarker(spans[i-1].To, s.From)})
		}
		for ln := s.From; ln <= s.To; ln++ {
			it := item{line: ln, text: row(r.P.Text(ln), ln, r.Raw)}
			rowBytes += len(it.text)
			items = append(items, it)
		}
	}
	cut := rowBytes > bound
	items = cutMiddle(items, rowBytes, bound, r.Path)
	v := View{Cut: cut}
	for _, it := range items {
		out.WriteString(it.text)
		if it.line > 0 && !r.Raw {
			v.Shown.Add(it.line)
		}
	}
	if last := spans[len(spans)-1].To; last < n && !r.NoTail {
		fmt.Fprintf(&out, "[%s in all; read %s:%d- for the rest]\n", Count(n, "line"), r.Path, last+1)
	}
	v.Text = out.String()
	return v
}

// WholeBound is the bound of a read's whole view (Result.Whole): every row
// of a file the session can read.
const WholeBound = 1 << 30

// Whole is the view of r with no cut, when v (its view) was cut; "" when
// nothing was cut, or when the whole is over KeptBound (a range of a
// 50 MB line: the file itself is there to read in ranges; a session does
// not hold or keep a copy that size). It marks nothing seen: the session
// keeps it so that the agent can read the cut rows back exactly as they
// were.
func Whole(r ViewRequest, v View) string {
	if !v.Cut {
		return ""
	}
	r.Bound = KeptBound
	w := Render(r)
	if w.Cut {
		return ""
	}
	return w.Text
}

// KeptBound is the largest whole result a session keeps for a later read
// of its cut rows (memory://).
const KeptBound = 8 << 20

// Header is a read's first line: [path#TAG], [path] without a tag.
func Header(path, tag string, raw bool) string {
	switch {
	case raw:
		return "[" + path + " raw: no row numbers, not edit anchors]\n"
	case tag == "":
		return "[" + path + "]\n"
	}
	return "[" + path + "#" + tag + "]\n"
}

func row(text []byte, n int, raw bool) string {
	if raw {
		return strings.ToValidUTF8(string(text), "\uFFFD") + "\n"
	}
	return strconv.Itoa(n) + ":" + string(text) + "\n"
}

func gapMarker(prevTo, from int) string {
	if from > prevTo+1 {
		return fmt.Sprintf("[... lines %d-%d not shown ...]\n", prevTo+1, from-1)
	}
	return fmt.Sprintf("[... next span from line %d ...]\n", from)
}

// cutMiddle keeps the head and the tail of the items within the bound and
// replaces the middle with one notice that names the lines cut.
func cutMiddle(items []item, rowBytes, bound int, path string) []item {
	if rowBytes <= bound {
		return items
	}
	half := bound / 2
	head, used := 0, 0
	for head < len(items) && used+len(items[head].text) <= half {
		used += len(items[head].text)
		head++
	}
	tail, used := len(items), 0
	for tail > head && used+len(items[tail-1].text) <= half {
		used += len(items[tail-1].text)
		tail--
	}
	var lead []item
	if head == 0 && tail == len(items) && items[0].line > 0 {
		// Not even one row fits: show the first one cut, as a notice (not a
		// row, so not seen), and say so.
		first := items[0]
		text := strings.ToValidUTF8(first.text[:min(len(first.text), half)], "")
		lead = []item{{text: fmt.Sprintf("[line %d is %d bytes, over the output bound: shown cut below, not an edit anchor; change it with write or bash]\n", first.line, len(first.text)-1)},
			{text: "[cut line] " + strings.TrimSuffix(text, "\n") + "\n"}}
	}
	var cut LineSet
	for _, it := range items[head:tail] {
		if it.line > 0 {
			cut.Add(it.line)
		}
	}
	var rs []Range
	cut.Each(func(a, b int) { rs = append(rs, Range{a, b}) })
	sel := SpellRanges(rs)
	note := item{text: fmt.Sprintf("[cut: lines %s not shown, over the output bound of %d bytes; read %s:%s to see them]\n", sel, bound, path, sel)}
	out := append(items[:head:head], lead...)
	out = append(out, note)
	return append(out, items[tail:]...)
}
