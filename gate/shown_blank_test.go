package gate

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A character that prints as nothing though it is a letter, a mark or a
// symbol is escaped in every question, and bash reads the shown word back
// as the same bytes.
func TestBlankCharactersAreEscaped(t *testing.T) {
	for _, r := range []rune{0x3164, 0x115F, 0x1160, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x180B, 0xFE0F, 0xE0100} {
		word := "a" + string(r) + "b'c\\d"
		shown := Visible(word)
		if strings.ContainsRune(shown, r) {
			t.Errorf("U+%04X shown raw in %q", r, shown)
		}
		f, err := syntax.NewParser().Parse(strings.NewReader("x "+shown), "")
		if err != nil {
			t.Fatalf("%q: %v", shown, err)
		}
		var got string
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) == 2 {
				got, err = expand.Literal(nil, c.Args[1])
			}
			return true
		})
		if err != nil || got != word {
			t.Errorf("U+%04X: bash reads %q back as %q (%v)", r, shown, got, err)
		}
		text := VisibleText("import os\n" + string(r) + " = 'rm -rf x'\n")
		if strings.ContainsRune(text, r) || !strings.Contains(text, "\n") {
			t.Errorf("U+%04X in a step's text: %q", r, text)
		}
	}
}
