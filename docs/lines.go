package docs

import "bytes"

// BOM is the UTF-8 byte order mark. A file that starts with it keeps it:
// it is not part of line 1's text.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// Ending is a line's own ending: none (only the last line can have none),
// LF, or CRLF. A lone CR is text (S8.6).
type Ending uint8

const (
	NoEnding Ending = iota
	LF
	CRLF
)

// Bytes spells the ending.
func (e Ending) Bytes() []byte {
	switch e {
	case LF:
		return []byte{'\n'}
	case CRLF:
		return []byte{'\r', '\n'}
	}
	return nil
}

func (e Ending) String() string {
	switch e {
	case LF:
		return "LF"
	case CRLF:
		return "CRLF"
	}
	return "none"
}

// Line is one line of a Projection: its text is Src[Start:End] and its
// ending follows right after.
type Line struct {
	Start, End int
	Ending     Ending
}

// Projection is a file as the line model sees it: the BOM flag and each
// line's span and own ending. It points into Src and never copies it.
type Projection struct {
	Src   []byte
	BOM   bool
	Lines []Line
}

// Scan projects bytes onto lines (S8.6): a line ends at '\n'; a '\r' right
// before it is part of that line's CRLF ending; a lone '\r' is text. An
// empty file, or one holding only a BOM, has no lines; a file that ends
// with an ending has no empty line after it.
func Scan(src []byte) Projection {
	p := Projection{Src: src}
	i := 0
	if bytes.HasPrefix(src, BOM) {
		p.BOM = true
		i = len(BOM)
	}
	p.Lines = make([]Line, 0, bytes.Count(src[i:], []byte{'\n'})+1)
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			p.Lines = append(p.Lines, Line{Start: i, End: len(src)})
			break
		}
		end := i + j
		e := LF
		if end > i && src[end-1] == '\r' {
			end--
			e = CRLF
		}
		p.Lines = append(p.Lines, Line{Start: i, End: end, Ending: e})
		i += j + 1
	}
	return p
}

// Text is line n's text (1-based), without its ending.
func (p Projection) Text(n int) []byte {
	l := p.Lines[n-1]
	return p.Src[l.Start:l.End]
}

// Raw is line n's bytes with its own ending.
func (p Projection) Raw(n int) []byte {
	l := p.Lines[n-1]
	return p.Src[l.Start : l.End+len(l.Ending.Bytes())]
}

// FirstEnding is the file's first line ending, the carry a new line starts
// from at the file's start (lines_carry_is_first); LF when the file has none.
func (p Projection) FirstEnding() Ending {
	for _, l := range p.Lines {
		if l.Ending != NoEnding {
			return l.Ending
		}
	}
	return LF
}

// HasEndings tells whether any line has an ending.
func (p Projection) HasEndings() bool {
	return len(p.Lines) > 0 && (len(p.Lines) > 1 || p.Lines[0].Ending != NoEnding)
}

// EndsOpen tells whether the file's last line has no ending.
func (p Projection) EndsOpen() bool {
	return len(p.Lines) > 0 && p.Lines[len(p.Lines)-1].Ending == NoEnding
}
