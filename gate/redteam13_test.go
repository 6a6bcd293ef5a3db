package gate

// The thirteenth red team's attacks on gate.blank (the characters a
// question escapes as drawing nothing), through VisibleText and Visible,
// the escapers of every question. Each test asserts the safe outcome;
// these held. The attacks that got through are in
// redteam13_open13_test.go (build tag open_attacks).

import (
	"os"
	"path/filepath"
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

// r13classify classifies script in root with HOME=home under p, and
// gives the union of its steps' effects.
func r13classify(t *testing.T, p *Policy, root, home, script string) Effects {
	t.Helper()
	sh := &Shell{Policy: p, Dir: root, Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}, ReadDir: os.ReadDir}
	sc, err := sh.Classify(script)
	if err != nil {
		return Of(Secret) // refused whole
	}
	var e Effects
	for _, s := range sc.Steps {
		e = e.Union(s.Effects)
	}
	return e
}

// Attack (target 1, the gate's side): each directory above eukhe's
// user settings file (the eukhe directory, ~/.config, the home) renamed,
// removed or replaced by a table command (mv, rm, rmdir, ln, cp), by
// /proc/self/root, /proc/thread-self/root, /proc/self/cwd, a trailing
// slash or dot, a workspace symlink to the home or to ~/.config, cd,
// and mv -t / --target-directory; and ~/.config made where it is
// missing. Every one must be secret (asked every time).
// Class: replacing the settings file by a directory above it.
func TestRedteam13_DirsAboveSettingsFileBySpellingsAreSecret(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.MkdirAll(user, 0o755))
	must(t, os.WriteFile(filepath.Join(user, "settings.json"), []byte(`{}`), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "cfg", "eukhe"), 0o755))
	must(t, os.Symlink(home, filepath.Join(root, "h")))
	must(t, os.Symlink(filepath.Join(home, ".config"), filepath.Join(root, "c")))
	p := Places{Roots: []string{root}, Home: home, UserDir: user}.Policy(OS)
	cfg := filepath.Join(home, ".config")
	for _, s := range []string{
		"mv " + cfg + " " + home + "/old",
		"mv " + cfg + "/ " + home + "/old",
		"mv " + user + " " + root + "/e",
		"mv /proc/self/root" + cfg + " " + root + "/x",
		"mv /proc/thread-self/root" + cfg + " " + root + "/x",
		"mv /proc/self/cwd/../.config " + root + "/x",
		"mv h/.config x",
		"mv c/eukhe x",
		"mv c/ x",
		"mv c/. x",
		"mv ~/.config/./ x",
		"cd ~ && mv .config x",
		"cd ~/.config && mv eukhe ../x",
		"cd ~/.config && mv . ../x",
		"mv -t " + root + " " + cfg,
		"mv --target-directory=" + root + " " + user,
		"rm -rf ~/.config",
		"rm -r h/.config/eukhe",
		"rmdir ~/.config/eukhe",
		"ln -sfn " + root + "/cfg/eukhe ~/.config/eukhe",
		"ln -sfT " + root + "/cfg ~/.config",
		"cp -rT cfg ~/.config",
		"cp -r cfg/eukhe ~/.config/",
		"mv cfg/eukhe ~/.config/",
		"mv -T cfg/eukhe ~/.config/eukhe",
		"mv " + home + " " + root + "/../../h2",
		"mv ~ x",
		"mv h/ x",
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("ESCAPED: %q is %v, not secret", s, e)
		}
	}
	if e := r13classify(t, p, root, home, "mv cfg/eukhe cfg/e2"); e.Has(Secret) {
		t.Errorf("control: a rename in the workspace is secret: %v", e)
	}
	// ~/.config missing: made by a step
	_, home2, root2 := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root2, "cfg", "eukhe"), 0o755))
	p2 := Places{Roots: []string{root2}, Home: home2, UserDir: filepath.Join(home2, ".config", "eukhe")}.Policy(OS)
	for _, s := range []string{
		"mv cfg ~/.config",
		"ln -s " + root2 + "/cfg ~/.config",
		"cp -r cfg ~/.config",
		"mkdir -p ~/.config/eukhe",
		"mkdir ~/.config",
		"cp -r cfg/eukhe ~/.config",
		"ln -s " + root2 + "/cfg/eukhe/settings.json ~/.config/eukhe/settings.json",
	} {
		if e := r13classify(t, p2, root2, home2, s); !e.Has(Secret) {
			t.Errorf("ESCAPED (no ~/.config yet): %q is %v, not secret", s, e)
		}
	}
}

// Held (was open): gate.blank lists U+1BC9D (and the VS Code and Neovim lists).
// Attack (target 7; severity low): U+1BC9D DUPLOYAN THICK LETTER
// SELECTOR is a nonspacing mark that only selects a glyph variant, as a
// variation selector does, and draws as nothing after a letter of
// another script; Go prints it, Unicode lists it neither as a variation
// selector nor as default ignorable, so blank lets it through raw: a
// name holding it (it is a mark, Python takes it inside an identifier)
// shows as its neighbours.
// Root cause (guess): blank is Unicode's ignorable list plus a
// hand-kept list; the selector-like marks outside Variation_Selector
// (U+1BC9D) are on neither.
func TestRedteam13_DuployanSelectorEscaped(t *testing.T) {
	if v := VisibleText("cat a\U0001BC9Db"); strings.ContainsRune(v, 0x1BC9D) {
		t.Errorf("U+1BC9D shown raw: %q", v)
	}
}

// Held (was open): marks past maxStackedMarks in a row are escaped (gate/shown.go).
// Attack (target 7; severity low): a stack of combining marks (forty
// U+030D above one letter, forty U+0333 below) draws far above and below
// its line and covers the question's lines next to it in a terminal or
// an editor's dialog; each mark is printable and not blank, so the stack
// is shown raw however high it is.
// Root cause (guess): blank looks at one character at a time; nothing
// bounds the marks on one base character (a grapheme cluster's length).
func TestRedteam13_CombiningStackEscaped(t *testing.T) {
	stack := "r" + strings.Repeat("\u030D", 40) + strings.Repeat("\u0333", 40) + "m"
	v := VisibleText("echo hi\n" + stack + " -rf ~\necho bye")
	marks := 0
	for _, r := range v {
		if unicode.Is(unicode.Mn, r) {
			marks++
		}
	}
	if marks > 8 {
		t.Errorf("a stack of %d combining marks on one letter is shown raw: %q", marks, v)
	}
}
