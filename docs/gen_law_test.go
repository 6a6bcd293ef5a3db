package docs_test

// Generators and reference models shared by the law tests. The models are
// written from the laws' statements, independently of the code under test.

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// textPieces are what line texts are made of: plain ASCII, lone CRs,
// multi-byte runes, and things that look like patch or view syntax.
var textPieces = []string{
	"a", "b", "z", " ", "\t", "\r", "x\ry", "é", "世", "😀", "1:", "[", "]", "#", "@@ 1", "+", "-", "MV ", ":5-6",
}

// genText is one line's text: no '\n'; long (> 512 characters) now and
// then; lone CRs; multi-byte runes. utf8 keeps it valid UTF-8 without NUL.
func genText(t *rapid.T, label string, utf8Only bool) string {
	switch rapid.IntRange(0, 9).Draw(t, label+"/kind") {
	case 0:
		return ""
	case 1:
		// A long line; now and then right at the reveal bound of 512
		// characters.
		reps := rapid.IntRange(500, 1200).Draw(t, label+"/reps")
		if rapid.Bool().Draw(t, label+"/edge") {
			reps = rapid.IntRange(511, 513).Draw(t, label+"/edgereps")
		}
		unit := rapid.SampledFrom([]string{"a", "é", "世", "😀", "\r"}).Draw(t, label+"/unit")
		s := strings.Repeat(unit, reps)
		if rapid.Bool().Draw(t, label+"/mixed") {
			s = strings.Repeat("ab\r", reps/3)
		}
		return s
	case 2:
		if !utf8Only {
			bs := rapid.SliceOfN(rapid.SampledFrom([]byte{0, 0xFF, 0xFE, 0xC3, 0x80, '\r', 'q'}), 0, 6).Draw(t, label+"/bytes")
			return string(bs)
		}
	}
	ps := rapid.SliceOfN(rapid.SampledFrom(textPieces), 0, 8).Draw(t, label+"/pieces")
	return strings.Join(ps, "")
}

// genNewText is a new line's text as a patch can carry it: the patch
// parser drops one '\r' at a patch line's end (CRLF patches), so a new text
// does not end in '\r'.
func genNewText(t *rapid.T, label string) string {
	s := genText(t, label, true)
	return strings.TrimRight(s, "\r")
}

// genFile is a file's bytes: a BOM now and then, lines ending in LF or
// CRLF, lone CRs, long lines, empty files, and files without a final
// ending. utf8Only keeps the bytes valid UTF-8 without NUL.
func genFile(t *rapid.T, label string, utf8Only bool, maxLines int) []byte {
	var b []byte
	if rapid.IntRange(0, 3).Draw(t, label+"/bom") == 0 {
		b = append(b, bom...)
	}
	n := rapid.IntRange(0, maxLines).Draw(t, label+"/lines")
	for i := range n {
		b = append(b, genText(t, fmt.Sprintf("%s/%d", label, i), utf8Only)...)
		last := i == n-1
		switch e := rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("%s/%d/end", label, i)); {
		case last && e == 0:
			// no final ending
		case e <= 2:
			b = append(b, '\n')
		default:
			b = append(b, '\r', '\n')
		}
	}
	return b
}

// genBytes is either a structured file or raw bytes from a small alphabet
// rich in line-model bytes.
func genBytes(t *rapid.T, label string) []byte {
	if rapid.Bool().Draw(t, label+"/raw") {
		alpha := []byte{'\r', '\n', 'a', ' ', 0xEF, 0xBB, 0xBF, 0, 0xFF, 0xC3, 0xA9}
		b := rapid.SliceOfN(rapid.SampledFrom(alpha), 0, 64).Draw(t, label+"/bytes")
		if rapid.IntRange(0, 3).Draw(t, label+"/rawbom") == 0 {
			b = append(slices.Clone(bom), b...)
		}
		return b
	}
	return genFile(t, label, false, 12)
}

// refLine is a line as the reference splitter sees it.
type refLine struct {
	text   string
	ending string // "", "\n" or "\r\n"
}

// refScan is the line model of S8.6 stated directly: strip one BOM, split
// at '\n'; a '\r' right before a '\n' belongs to the ending; what follows
// the last '\n' is a line only when it is not empty.
func refScan(b []byte) (hasBOM bool, lines []refLine) {
	if bytes.HasPrefix(b, bom) {
		hasBOM, b = true, b[len(bom):]
	}
	return hasBOM, refSplit(b)
}

// refSplit splits bytes into lines at '\n', with no BOM to strip.
func refSplit(b []byte) (lines []refLine) {
	parts := strings.Split(string(b), "\n")
	for i, s := range parts {
		if i == len(parts)-1 {
			if s != "" {
				lines = append(lines, refLine{text: s})
			}
			break
		}
		if strings.HasSuffix(s, "\r") {
			lines = append(lines, refLine{strings.TrimSuffix(s, "\r"), "\r\n"})
		} else {
			lines = append(lines, refLine{s, "\n"})
		}
	}
	return lines
}

// refFirstEnding is the file's first ending, else LF.
func refFirstEnding(lines []refLine) string {
	for _, l := range lines {
		if l.ending != "" {
			return l.ending
		}
	}
	return "\n"
}

// genOps draws ops on a file of n lines. valid draws only ops that fit
// the file and do not overlap; otherwise anything the parser can produce.
func genOps(t *rapid.T, n int, valid bool, maxOps int) []docs.Op {
	var ops []docs.Op
	newLines := func(label string) []string {
		k := rapid.IntRange(0, 3).Draw(t, label+"/k")
		ls := make([]string, k)
		for i := range ls {
			ls[i] = genNewText(t, fmt.Sprintf("%s/%d", label, i))
		}
		return ls
	}
	if !valid {
		k := rapid.IntRange(0, maxOps).Draw(t, "ops")
		for i := range k {
			o := docs.Op{Kind: docs.OpKind(rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("op%d/kind", i))), At: i + 2}
			switch o.Kind {
			case docs.OpReplace:
				o.A = rapid.IntRange(1, n+2).Draw(t, fmt.Sprintf("op%d/a", i))
				o.B = o.A + rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("op%d/len", i))
			case docs.OpInsertAfter, docs.OpInsertBefore:
				o.A = rapid.IntRange(1, n+2).Draw(t, fmt.Sprintf("op%d/a", i))
				o.B = o.A
			}
			o.Lines = newLines(fmt.Sprintf("op%d/lines", i))
			ops = append(ops, o)
		}
		return ops
	}
	replaced := make([]bool, n+2)
	for ln := 1; ln <= n; {
		if len(ops) < maxOps && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("rep%d", ln)) == 0 {
			b := min(n, ln+rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("rep%d/len", ln)))
			ops = append(ops, docs.Op{Kind: docs.OpReplace, A: ln, B: b, Lines: newLines(fmt.Sprintf("rep%d/lines", ln))})
			for k := ln; k <= b; k++ {
				replaced[k] = true
			}
			ln = b + 1
			continue
		}
		ln++
	}
	k := rapid.IntRange(0, max(0, maxOps-len(ops))).Draw(t, "inserts")
	for i := range k {
		kind := docs.OpKind(rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("ins%d/kind", i)))
		o := docs.Op{Kind: kind, Lines: newLines(fmt.Sprintf("ins%d/lines", i))}
		if kind == docs.OpInsertAfter || kind == docs.OpInsertBefore {
			if n == 0 {
				continue
			}
			a := rapid.IntRange(1, n).Draw(t, fmt.Sprintf("ins%d/a", i))
			if replaced[a] {
				continue
			}
			o.A, o.B = a, a
		}
		ops = append(ops, o)
	}
	// Patch order is free: shuffle it.
	perm := rapid.Permutation(ops).Draw(t, "order")
	for i := range perm {
		perm[i].At = i + 2
	}
	return perm
}

// opAnchors are the lines an op stands on (S8.8).
func opAnchors(o docs.Op) []int {
	switch o.Kind {
	case docs.OpReplace:
		var ls []int
		for l := o.A; l <= o.B; l++ {
			ls = append(ls, l)
		}
		return ls
	case docs.OpInsertAfter, docs.OpInsertBefore:
		return []int{o.A}
	}
	return nil
}

// modelResult is what the patch language says ops make of a file.
type modelResult struct {
	pieces  []docs.Piece
	mapping []int // old line -> new line, 0 when it went
	written []int // new lines the edit wrote
}

// modelApply applies ops to a file of n lines, as DESIGN.md §3.2 states
// them: ok is false when an op does not fit or ops overlap. Every kept old
// line, every replacement and every insert gets a place key; the result is
// the pieces sorted by key.
func modelApply(n int, ops []docs.Op) (modelResult, bool) {
	removedBy := make(map[int]int) // line -> index of the replace that removes it
	for i, o := range ops {
		switch o.Kind {
		case docs.OpReplace:
			if o.A < 1 || o.B < o.A || o.B > n {
				return modelResult{}, false
			}
			for l := o.A; l <= o.B; l++ {
				if _, dup := removedBy[l]; dup {
					return modelResult{}, false
				}
				removedBy[l] = i
			}
		case docs.OpInsertAfter, docs.OpInsertBefore:
			if o.A < 1 || o.A > n {
				return modelResult{}, false
			}
		}
	}
	for _, o := range ops {
		if o.Kind == docs.OpInsertAfter || o.Kind == docs.OpInsertBefore {
			if _, in := removedBy[o.A]; in {
				return modelResult{}, false
			}
		}
	}
	type keyed struct {
		pos, sub, idx, j int
		pc               docs.Piece
	}
	var all []keyed
	for l := 1; l <= n; l++ {
		if _, gone := removedBy[l]; !gone {
			all = append(all, keyed{pos: l, sub: 1, pc: docs.Piece{Old: l}})
		}
	}
	for i, o := range ops {
		pos, sub := 0, 2
		switch o.Kind {
		case docs.OpReplace:
			pos, sub = o.A, 1
		case docs.OpInsertAfter:
			pos = o.A
		case docs.OpInsertBefore:
			pos = o.A - 1
		case docs.OpStart:
			pos = 0
		case docs.OpEnd:
			pos = n
		}
		for j, s := range o.Lines {
			all = append(all, keyed{pos: pos, sub: sub, idx: i, j: j, pc: docs.Piece{Text: s}})
		}
	}
	slices.SortStableFunc(all, func(x, y keyed) int {
		return cmp.Or(cmp.Compare(x.pos, y.pos), cmp.Compare(x.sub, y.sub), cmp.Compare(x.idx, y.idx), cmp.Compare(x.j, y.j))
	})
	r := modelResult{mapping: make([]int, n)}
	for i, k := range all {
		r.pieces = append(r.pieces, k.pc)
		if k.pc.Old > 0 {
			r.mapping[k.pc.Old-1] = i + 1
		} else {
			r.written = append(r.written, i+1)
		}
	}
	return r, true
}

// weave is persist_weaves_carry stated directly: the BOM as it was; each
// line's text; each line but the last followed by its own ending, else the
// separator written before it (at the start: the file's first ending,
// else LF). The last line keeps its own ending; a new last line gets the
// separator unless the file ended without an ending (an empty line
// without an ending would be no line: it gets the separator). After a text
// that ends in a lone CR, an LF separator is written as CRLF, or the line
// would read back as another text.
func weave(src []byte, pieces []docs.Piece) []byte {
	hasBOM, lines := refScan(src)
	var out []byte
	if hasBOM {
		out = append(out, bom...)
	}
	sep := refFirstEnding(lines)
	endsOpen := len(lines) > 0 && lines[len(lines)-1].ending == ""
	for i, pc := range pieces {
		last := i == len(pieces)-1
		text, own := pc.Text, ""
		if pc.Old > 0 {
			text, own = lines[pc.Old-1].text, lines[pc.Old-1].ending
		}
		out = append(out, text...)
		// The line model reads a lone CR before an LF as a CRLF ending:
		// a text that ends in CR is followed by CRLF to stay the same text.
		written := sep
		if sep == "\n" && strings.HasSuffix(text, "\r") {
			written = "\r\n"
		}
		switch {
		case own != "":
			out = append(out, own...)
			sep = own
		case !last:
			out = append(out, written...)
		case pc.Old == 0 && (!endsOpen || text == ""):
			out = append(out, written...)
		}
	}
	return out
}

// spellPatchSection spells a section's ops in the patch language.
func spellOps(ops []docs.Op) string {
	var b strings.Builder
	for _, o := range ops {
		switch o.Kind {
		case docs.OpReplace:
			if o.A == o.B {
				fmt.Fprintf(&b, "@@ %d\n", o.A)
			} else {
				fmt.Fprintf(&b, "@@ %d-%d\n", o.A, o.B)
			}
		case docs.OpInsertAfter:
			fmt.Fprintf(&b, "@@ %d>\n", o.A)
		case docs.OpInsertBefore:
			fmt.Fprintf(&b, "@@ %d<\n", o.A)
		case docs.OpStart:
			b.WriteString("@@ ^\n")
		case docs.OpEnd:
			b.WriteString("@@ $\n")
		}
		for _, l := range o.Lines {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// workspace is a temp directory with the document tools of one session on
// the disk Store.
type workspace struct {
	dir   string
	tools *docs.Tools
}

func newWorkspace(t *rapid.T, parent string) *workspace {
	dir, err := os.MkdirTemp(parent, "ws")
	if err != nil {
		t.Fatal(err)
	}
	return &workspace{dir: dir, tools: &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}}
}

func (w *workspace) path(name string) string { return filepath.Join(w.dir, name) }

func (w *workspace) put(t *rapid.T, name string, b []byte) {
	p := w.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (w *workspace) get(t *rapid.T, name string) ([]byte, bool) {
	b, err := os.ReadFile(w.path(name))
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

func tagOf(b []byte) string { return docs.DigestOf(b).Tag().String() }

// rowRe is a numbered row of a read: "N:text".
var rowRe = regexp.MustCompile(`^([0-9]+):(.*)$`)

// viewLines splits a view's text into its printed lines.
func viewLines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// rowsOf lists the numbered rows a text shows, in order.
func rowsOf(text string) (nums []int, texts []string) {
	for _, l := range viewLines(text) {
		if m := rowRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			nums = append(nums, n)
			texts = append(texts, m[2])
		}
	}
	return nums, texts
}

// lineSetOf lists a LineSet's lines.
func lineSetOf(s *docs.LineSet) []int {
	var out []int
	s.Each(func(a, b int) {
		for l := a; l <= b; l++ {
			out = append(out, l)
		}
	})
	return out
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// parentDir is a per-test directory that rapid's checks make their own
// workspaces in.
func parentDir(t *testing.T) string { return t.TempDir() }

// short quotes bytes for a failure message, cut in the middle when long.
func short[B ~[]byte | ~string](b B) string {
	s := string(b)
	if len(s) > 160 {
		return fmt.Sprintf("%q…(%d bytes)…%q", s[:80], len(s), s[len(s)-60:])
	}
	return fmt.Sprintf("%q", s)
}

// fataler is what the checks need of a test: *testing.T, *rapid.T.
type fataler interface {
	Fatalf(format string, args ...any)
}

// checkKeptBytes walks an edited file piece by piece: the BOM as it was,
// every kept line's text byte for byte and, when it had one, its own
// ending; new lines and line endings in between, and nothing else
// (edit_keeps_untouched_bytes).
func checkKeptBytes(t fataler, src []byte, pieces []docs.Piece, out []byte) {
	hasBOM, lines := refScan(src)
	rest := out
	take := func(what string, want []byte) {
		if !bytes.HasPrefix(rest, want) {
			t.Fatalf("%s: want %s next, output has %s (whole output %s)", what, short(want), short(rest[:min(len(rest), len(want)+8)]), short(out))
		}
		rest = rest[len(want):]
	}
	takeSep := func(what string) {
		switch {
		case bytes.HasPrefix(rest, []byte("\r\n")):
			rest = rest[2:]
		case bytes.HasPrefix(rest, []byte("\n")):
			rest = rest[1:]
		default:
			t.Fatalf("%s: want a line ending, output has %s", what, short(rest))
		}
	}
	if hasBOM {
		take("BOM", bom)
	} else if bytes.HasPrefix(out, bom) && !(len(pieces) > 0 && strings.HasPrefix(pieceText(lines, pieces[0]), string(bom))) {
		t.Fatalf("output gained a BOM: %s", short(out))
	}
	for i, pc := range pieces {
		last := i == len(pieces)-1
		if pc.Old > 0 {
			l := lines[pc.Old-1]
			take("kept line text", []byte(l.text))
			if l.ending != "" {
				take("kept line's own ending", []byte(l.ending))
			} else if !last {
				takeSep("kept open line followed by more")
			}
			continue
		}
		take("new line", []byte(pc.Text))
		if !last {
			takeSep("new line followed by more")
		} else if len(rest) > 0 {
			takeSep("new last line")
		}
	}
	if len(rest) > 0 {
		t.Fatalf("output has %s after the last line", short(rest))
	}
}

// checkReadBack reads an edited file back: its lines are the pieces'
// texts, in order (edit_writes_new_lines).
func checkReadBack(t fataler, src []byte, pieces []docs.Piece, out []byte) {
	hasBOM, lines := refScan(src)
	backBOM, back := refScan(out)
	if backBOM != hasBOM {
		// The line model cannot hold a first line whose text starts with
		// the BOM's bytes in a file without a BOM: it reads them as a
		// BOM. Every byte is still kept.
		if hasBOM || len(back) == 0 {
			t.Fatalf("BOM %v read back as %v: %s", hasBOM, backBOM, short(out))
		}
		back[0].text = string(bom) + back[0].text
	}
	if len(back) != len(pieces) {
		t.Fatalf("the edited file reads back as %d lines, want %d: %s", len(back), len(pieces), short(out))
	}
	for i, pc := range pieces {
		if want := pieceText(lines, pc); back[i].text != want {
			t.Fatalf("line %d reads back %s, want %s (output %s)", i+1, short(back[i].text), short(want), short(out))
		}
	}
}

func pieceText(lines []refLine, pc docs.Piece) string {
	if pc.Old > 0 {
		return lines[pc.Old-1].text
	}
	return pc.Text
}
