package gate

import (
	"testing"
	"unicode"
)

// Every character the question escapes as drawing nothing stays escaped:
// the lists of the ipython and twelfth red teams (Hangul fillers, the
// braille blank, the combining grapheme joiner, Khmer's inherent vowels,
// the Mongolian and other variation selectors, the Khitan filler, the
// null notehead, an Egyptian format control).
func TestBlankCoversBothRedTeamsLists(t *testing.T) {
	for _, r := range []rune{0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0x180B, 0x180C,
		0x180D, 0x180E, 0x180F, 0xFE00, 0xFE0F, 0xE0100, 0xE01EF, 0x16FE4, 0x1D159, 0x13440} {
		if unicode.IsPrint(r) && !blank(r) {
			t.Errorf("%U is printable to Go and not escaped", r)
		}
	}
}
