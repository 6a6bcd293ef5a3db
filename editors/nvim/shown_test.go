package nvim_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// fieldPieces are what generated fields are made of: plain text, shell
// characters and reserved words, lines that look like a dialog's
// actions, and every kind of character the dialog must escape (controls,
// DEL, C1, other spaces, bidi marks, embeddings, overrides and isolates,
// zero-width characters, separators, private use, tags, the replacement
// character) and bytes that are not UTF-8 (a stray continuation, an
// overlong form, an encoded surrogate, a cut sequence, a code point above
// U+10FFFF).
var fieldPieces = []string{
	"a", "Z", "9", "reviewer", "/ws/sub", "é", "中", "😀", "e\u0301",
	" ", "'", `"`, `\`, "$", "`", "#", "~", "=", "*", "[", "{", "}", "!", "if", "[[", "in",
	"[Allow]", "1. Allow", "Request Actions:",
	"\n", "\t", "\r", "\x01", "\x07", "\x1b", "\x7f", "\u0085", "\u009b", "\u00a0", "\u00ad",
	"\u061c", "\u200b", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e",
	"\u2060", "\u2066", "\u2069", "\ufeff", "\ue000", "\ufffd", "\U000e0041", "\U000f0000",
	"\x80", "\xff", "\xc0\x80", "\xed\xa0\x80", "\xe2\x80", "\xf4\x90\x80\x80",
}

// serverText is a step as the server shows it (gate's visibleText):
// newlines and tabs kept, every other character that does not print
// escaped alone by gate.Visible.
func serverText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\n' || r == '\t' || (r != utf8.RuneError && unicode.IsPrint(r)) {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteString(gate.Visible(s[i : i+size]))
		}
		i += size
	}
	return b.String()
}

// TestTheDialogShowsFieldsAsTheServerDoes: approve.lua's escape of a
// field (the subagent's name, the session, the directory) is
// gate.Visible's, and of a step the server's, for generated strings of
// the pieces above (no NUL: the server refuses a script with one, and
// gate.Visible reads it as its own marker). One Neovim answers them all.
func TestTheDialogShowsFieldsAsTheServerDoes(t *testing.T) {
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvimBin(t), "--headless", "--clean", "--cmd", "set rtp+="+plugin,
		"-c", "luafile "+filepath.Join(plugin, "test", "shown_server.lua"))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	defer func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("nvim serving approve.lua's escapes: %v", err)
		}
	}()
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	ask := func(s string) (field, text string, err error) {
		if _, err := fmt.Fprintln(in, hex.EncodeToString([]byte(s))); err != nil {
			return "", "", err
		}
		if !lines.Scan() {
			return "", "", fmt.Errorf("nvim gave no answer for %q (%v)", s, lines.Err())
		}
		f, x, ok := strings.Cut(lines.Text(), " ")
		bf, err1 := hex.DecodeString(f)
		bx, err2 := hex.DecodeString(x)
		if !ok || err1 != nil || err2 != nil {
			return "", "", fmt.Errorf("nvim answered %q for %q", lines.Text(), s)
		}
		return string(bf), string(bx), nil
	}
	same := func(t interface{ Fatalf(string, ...any) }, s string) {
		field, text, err := ask(s)
		if err != nil {
			t.Fatalf("%v", err)
		}
		if want := gate.Visible(s); field != want {
			t.Fatalf("approve.lua shows the field %q as %q, the server as %q", s, field, want)
		}
		if want := serverText(s); text != want {
			t.Fatalf("approve.lua shows the step %q as %q, the server as %q", s, text, want)
		}
	}
	for _, p := range fieldPieces { // each alone, as a reserved word is quoted only alone
		same(t, p)
	}
	rapid.Check(t, func(t *rapid.T) {
		same(t, strings.Join(rapid.SliceOfN(rapid.SampledFrom(fieldPieces), 0, 10).Draw(t, "pieces"), ""))
	})
}
