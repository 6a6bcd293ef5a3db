package docs_test

// Fuzz targets for the patch parser and the line model. Seed corpora are
// in testdata/fuzz/<FuzzName>/.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// FuzzParsePatch: the parser never panics; a parsed patch's sections are
// well formed, and spelled again they parse to the same sections; a
// refusal names a line of the patch.
func FuzzParsePatch(f *testing.F) {
	f.Add("[a.go#0badf00d]\n@@ 2-3\n+x\n")
	f.Fuzz(func(t *testing.T, patch string) {
		secs, err := docs.ParsePatch(patch)
		lines := strings.Count(patch, "\n") + 1
		if err != nil {
			var pe *docs.PatchError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Line > lines {
				t.Fatalf("error %v (%T) names no line of a %d-line patch", err, err, lines)
			}
			return
		}
		checkSections(t, secs, lines)
		again, err := docs.ParsePatch(spellSections(secs))
		if err != nil {
			t.Fatalf("the parsed patch, spelled again, does not parse: %v\n%q", err, spellSections(secs))
		}
		if a, b := sectionsKey(secs), sectionsKey(again); a != b {
			t.Fatalf("spelled again, the patch parses otherwise:\n%s\n%s", a, b)
		}
	})
}

func checkSections(t *testing.T, secs []docs.Section, lines int) {
	if len(secs) == 0 {
		t.Fatalf("a parsed patch with no section")
	}
	prev := 0
	for _, s := range secs {
		if strings.TrimSpace(s.Path) == "" || strings.Contains(s.Path, "\n") {
			t.Fatalf("section path %q", s.Path)
		}
		if s.At <= prev || s.At > lines {
			t.Fatalf("section at patch line %d, after %d, in %d lines", s.At, prev, lines)
		}
		prev = s.At
		if s.Tagged {
			if len(s.Ops) == 0 && s.Move == "" {
				t.Fatalf("tagged section %q with nothing to do", s.Path)
			}
			if s.Create != nil {
				t.Fatalf("tagged section %q creates lines", s.Path)
			}
		} else if len(s.Ops) > 0 || s.Move != "" {
			t.Fatalf("tagless section %q with ops or a move", s.Path)
		}
		if s.Move != "" && (s.Move != strings.TrimSpace(s.Move) || strings.Contains(s.Move, "\n")) {
			t.Fatalf("move destination %q", s.Move)
		}
		for _, o := range s.Ops {
			if o.At <= prev || o.At > lines {
				t.Fatalf("op at patch line %d, after %d, in %d lines", o.At, prev, lines)
			}
			prev = o.At
			switch o.Kind {
			case docs.OpReplace:
				if o.A < 1 || o.B < o.A {
					t.Fatalf("replace %d-%d", o.A, o.B)
				}
			case docs.OpInsertAfter, docs.OpInsertBefore:
				if o.A < 1 || o.B != o.A {
					t.Fatalf("insert at %d (%d)", o.A, o.B)
				}
			case docs.OpStart, docs.OpEnd:
				if o.A != 0 || o.B != 0 {
					t.Fatalf("start/end insert with lines %d-%d", o.A, o.B)
				}
			default:
				t.Fatalf("op kind %d", o.Kind)
			}
			for _, l := range o.Lines {
				if strings.Contains(l, "\n") {
					t.Fatalf("op line %q", l)
				}
			}
		}
		for _, l := range s.Create {
			if strings.Contains(l, "\n") {
				t.Fatalf("created line %q", l)
			}
		}
	}
}

// spellSections writes sections back in the patch language, each patch
// line ended by CRLF (the parser drops one CR at a line's end, so a text
// that ends in CR survives).
func spellSections(secs []docs.Section) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\r\n") }
	for _, s := range secs {
		if s.Tagged {
			line("[" + s.Path + "#" + s.Tag.String() + "]")
		} else {
			line("[" + s.Path + "]")
		}
		for _, l := range s.Create {
			line("+" + l)
		}
		for _, o := range s.Ops {
			for _, l := range strings.Split(strings.TrimSuffix(spellOps([]docs.Op{{Kind: o.Kind, A: o.A, B: o.B}}), "\n"), "\n") {
				line(l)
			}
			for _, l := range o.Lines {
				line("+" + l)
			}
		}
		if s.Move != "" {
			line("MV " + s.Move)
		}
	}
	return b.String()
}

// sectionsKey is what a patch says, without where it says it.
func sectionsKey(secs []docs.Section) string {
	var b strings.Builder
	for _, s := range secs {
		fmt.Fprintf(&b, "[%q tagged=%v tag=%s move=%q create=%q]", s.Path, s.Tagged, s.Tag, s.Move, s.Create)
		for _, o := range s.Ops {
			fmt.Fprintf(&b, "(%d %d-%d %q)", o.Kind, o.A, o.B, o.Lines)
		}
	}
	return b.String()
}

// FuzzScan: the line model's invariants: after the BOM, each line's text
// and ending give back the bytes; no '\n' inside a text; a '\r' right
// before a '\n' is the ending's; only the last line may lack an ending,
// and it is not empty then; Persist with every line kept gives the bytes.
func FuzzScan(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := docs.Scan(b)
		if p.BOM != bytes.HasPrefix(b, bom) {
			t.Fatalf("BOM %v", p.BOM)
		}
		at := 0
		if p.BOM {
			at = len(bom)
		}
		var back []byte
		for i, l := range p.Lines {
			if l.Start != at || l.End < l.Start {
				t.Fatalf("line %d spans %d-%d, want it to start at %d", i+1, l.Start, l.End, at)
			}
			text := b[l.Start:l.End]
			if bytes.IndexByte(text, '\n') >= 0 {
				t.Fatalf("line %d has a newline in its text %q", i+1, text)
			}
			if l.Ending == docs.LF && bytes.HasSuffix(text, []byte{'\r'}) {
				t.Fatalf("line %d ends in CR LF, read as an LF ending", i+1)
			}
			if l.Ending == docs.NoEnding && (i != len(p.Lines)-1 || len(text) == 0) {
				t.Fatalf("line %d of %d has no ending (text %q)", i+1, len(p.Lines), text)
			}
			back = append(back, text...)
			back = append(back, l.Ending.Bytes()...)
			at = l.End + len(l.Ending.Bytes())
		}
		if !bytes.Equal(back, b[len(b)-len(bytes.TrimPrefix(b, bom)):]) {
			t.Fatalf("the lines give back %q, want %q", back, b)
		}
		pieces := make([]docs.Piece, len(p.Lines))
		for i := range pieces {
			pieces[i] = docs.Piece{Old: i + 1}
		}
		if got := docs.Persist(p, pieces); !bytes.Equal(got, b) {
			t.Fatalf("Persist with every line kept = %q, want %q", got, b)
		}
	})
}

// fuzzTexts are the new lines FuzzApply's ops write.
var fuzzTexts = []string{"", "x", "\r", "a\r", "é", "x\ry", "\uFEFFbom", "long " + strings.Repeat("z", 600)}

// decodeOps reads ops from bytes, four at a time: kind, line, length, and
// which new lines.
func decodeOps(spec []byte, n int) []docs.Op {
	var ops []docs.Op
	for i := 0; i+4 <= len(spec) && len(ops) < 16; i += 4 {
		o := docs.Op{Kind: docs.OpKind(spec[i] % 5), At: len(ops) + 2}
		switch o.Kind {
		case docs.OpReplace:
			o.A = 1 + int(spec[i+1])%(n+2)
			o.B = o.A + int(spec[i+2]%4)
		case docs.OpInsertAfter, docs.OpInsertBefore:
			o.A = 1 + int(spec[i+1])%(n+2)
			o.B = o.A
		}
		for k := range int(spec[i+3] % 4) {
			o.Lines = append(o.Lines, fuzzTexts[(int(spec[i+3]>>2)+k)%len(fuzzTexts)])
		}
		ops = append(ops, o)
	}
	return ops
}

// FuzzApply: random ops on random bytes never panic; when ApplyOps takes
// them, they are the ops that fit (no overlap, within the file), Persist
// keeps every untouched line's bytes, and the file reads back as the
// pieces' lines.
func FuzzApply(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"), []byte{0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, data, spec []byte) {
		p := docs.Scan(data)
		ops := decodeOps(spec, len(p.Lines))
		a, err := docs.ApplyOps(ops, len(p.Lines))
		m, ok := modelApply(len(p.Lines), ops)
		if (err == nil) != ok {
			t.Fatalf("ops %+v on %d lines: error %v, fit %v", ops, len(p.Lines), err, ok)
		}
		if err != nil {
			return
		}
		if len(a.Pieces) != len(m.pieces) {
			t.Fatalf("%d pieces, want %d", len(a.Pieces), len(m.pieces))
		}
		for i := range a.Pieces {
			if a.Pieces[i] != m.pieces[i] {
				t.Fatalf("piece %d is %+v, want %+v", i, a.Pieces[i], m.pieces[i])
			}
		}
		out := docs.Persist(p, a.Pieces)
		checkKeptBytes(t, data, a.Pieces, out)
		checkReadBack(t, data, a.Pieces, out)
	})
}
