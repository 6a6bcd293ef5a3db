package lsp

import (
	"unicode/utf8"

	lsproto "go.lsp.dev/protocol"
)

// encoding is the unit of a Position's character offset, negotiated at
// initialize.
type encoding uint8

const (
	utf16Enc encoding = iota // LSP's default, and VS Code's only choice
	utf8Enc
	utf32
)

func (e encoding) kind() lsproto.PositionEncodingKind {
	switch e {
	case utf8Enc:
		return lsproto.PositionEncodingKindUTF8
	case utf32:
		return lsproto.PositionEncodingKindUTF32
	}
	return lsproto.PositionEncodingKindUTF16
}

// negotiate picks utf-8 when the client offers it (no conversion at all),
// else utf-16, which every client supports.
func negotiate(offered []lsproto.PositionEncodingKind) encoding {
	for _, k := range offered {
		if k == lsproto.PositionEncodingKindUTF8 {
			return utf8Enc
		}
	}
	return utf16Enc
}

// width is how many units of e a character of n UTF-8 bytes takes. An
// invalid byte counts as one character (U+FFFD, one unit in every encoding).
func (e encoding) width(n int) int {
	switch e {
	case utf8Enc:
		return n
	case utf16Enc:
		if n == 4 {
			return 2
		}
	}
	return 1
}

// units is the length of line in units of e.
func (e encoding) units(line []byte) uint32 {
	if e == utf8Enc {
		return uint32(len(line))
	}
	var n uint32
	for i := 0; i < len(line); {
		if line[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		_, size := utf8.DecodeRune(line[i:])
		i += size
		n += uint32(e.width(size))
	}
	return n
}

// byteOffset is the byte offset in line of col units of e. A column past
// the end is the end (as the LSP says); a column inside a character (the
// middle of a surrogate pair) stands after it, so no character is split.
func (e encoding) byteOffset(line []byte, col uint32) int {
	if e == utf8Enc {
		return min(int(col), len(line))
	}
	var n uint32
	i := 0
	for i < len(line) && n < col {
		if line[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		_, size := utf8.DecodeRune(line[i:])
		i += size
		n += uint32(e.width(size))
	}
	return i
}
