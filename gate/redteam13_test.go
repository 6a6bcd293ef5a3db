package gate

// The thirteenth red team's attacks on gate.blank (the characters a
// question escapes as drawing nothing), through VisibleText and Visible,
// the escapers of every question. Each test asserts the safe outcome;
// these held. The attacks that got through are in
// redteam13_open13_test.go (build tag open_attacks).

import (
	"strings"
	"testing"
	"unicode"
)

// r13hidden are characters that draw as nothing or move other text in
// a question: bidi embeddings, overrides and isolates, the Arabic letter
// mark, the zero-width space, joiners and no-break, the word joiner and
// invisible operators, the line and paragraph separators, NEL, the BOM,
// tag characters, the interlinear annotation controls, the shorthand
// format controls, the musical formatting controls, the Mongolian vowel
// separator, soft hyphen, the Arabic number sign (a prepended format),
// the Hangul fillers, the Khitan filler, the braille blank, variation
// selectors, the ideographic and other wide spaces, and a private use
// character.
var r13hidden = []rune{
	0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x061C, 0x200E, 0x200F,
	0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2065, 0x206A, 0x206F,
	0x2028, 0x2029, 0x0085, 0xFEFF, 0xE0001, 0xE0020, 0xE0041, 0xE007F, 0xFFF9, 0xFFFA, 0xFFFB,
	0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A, 0x180E, 0x00AD, 0x0600, 0x08E2, 0x110BD,
	0x115F, 0x1160, 0x3164, 0xFFA0, 0x16FE4, 0x2800, 0xFE0F, 0xE0100, 0x180F, 0x034F, 0x17B4,
	0x3000, 0x2000, 0x200A, 0x202F, 0x205F, 0x00A0, 0x1680, 0xE000, 0xF8FF, 0x1D159,
	0x13430, 0x13438, 0x1343F,
}

// Attack (target 7): each hidden character in a word and in a script,
// alone and between two letters: the shown text must not hold it raw.
// Class: a character that draws as nothing or reorders the question.
func TestRedteam13_HiddenCharactersAreEscaped(t *testing.T) {
	for _, r := range r13hidden {
		s := "echo a" + string(r) + "b"
		if v := VisibleText(s); strings.ContainsRune(v, r) {
			t.Errorf("VisibleText keeps %U raw: %q", r, v)
		}
		if v := Visible("a" + string(r) + "b"); strings.ContainsRune(v, r) {
			t.Errorf("Visible keeps %U raw: %q", r, v)
		}
	}
}

// Attack (target 7): every code point Go prints that Unicode lists as
// default ignorable (drawn as nothing where not supported) is escaped.
func TestRedteam13_EveryPrintableDefaultIgnorableIsEscaped(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.IsPrint(r) {
			continue
		}
		ignorable := unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
			(unicode.Is(unicode.Zs, r) && r != ' ')
		if ignorable && strings.ContainsRune(VisibleText("x"+string(r)), r) {
			t.Errorf("%U is ignorable and shown raw", r)
		}
	}
}
