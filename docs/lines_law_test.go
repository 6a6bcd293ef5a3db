package docs_test

// S8.6, the line model: load_persist_roundtrip, edit_keeps_untouched_bytes,
// edit_writes_new_lines, persist_weaves_carry, lines_carry_is_first,
// lines_write_keeps.

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// The scan is the line model: the BOM flag, each line's text and own
// ending, as refScan states it.
func TestScanIsTheLineModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		p := docs.Scan(b)
		hasBOM, want := refScan(b)
		if p.BOM != hasBOM {
			t.Fatalf("BOM = %v, want %v", p.BOM, hasBOM)
		}
		if len(p.Lines) != len(want) {
			t.Fatalf("%d lines, want %d: %q", len(p.Lines), len(want), b)
		}
		for i, l := range want {
			if got := string(p.Text(i + 1)); got != l.text {
				t.Fatalf("line %d text %q, want %q", i+1, got, l.text)
			}
			if got := string(p.Lines[i].Ending.Bytes()); got != l.ending {
				t.Fatalf("line %d ending %q, want %q", i+1, got, l.ending)
			}
			if got := string(p.Raw(i + 1)); got != l.text+l.ending {
				t.Fatalf("line %d raw %q, want %q", i+1, got, l.text+l.ending)
			}
		}
		if p.EndsOpen() != (len(want) > 0 && want[len(want)-1].ending == "") {
			t.Fatalf("EndsOpen = %v", p.EndsOpen())
		}
		hasEndings := slices.ContainsFunc(want, func(l refLine) bool { return l.ending != "" })
		if p.HasEndings() != hasEndings {
			t.Fatalf("HasEndings = %v, want %v", p.HasEndings(), hasEndings)
		}
	})
}

func keepAll(n int) []docs.Piece {
	ps := make([]docs.Piece, n)
	for i := range ps {
		ps[i] = docs.Piece{Old: i + 1}
	}
	return ps
}

// load_persist_roundtrip: load + write, no edit: same bytes.
func TestLaw_load_persist_roundtrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		p := docs.Scan(b)
		if got := docs.Persist(p, keepAll(len(p.Lines))); !bytes.Equal(got, b) {
			t.Fatalf("Persist(Scan(b)) = %q, want %q", got, b)
		}
		// The same through ApplyOps with no ops.
		a, err := docs.ApplyOps(nil, len(p.Lines))
		if err != nil {
			t.Fatal(err)
		}
		if got := docs.Persist(p, a.Pieces); !bytes.Equal(got, b) {
			t.Fatalf("Persist(ApplyOps(no ops)) = %q, want %q", got, b)
		}
	})
}

// genEdit draws a file and valid ops on it, and applies them.
func genEdit(t *rapid.T) (b []byte, p docs.Projection, ops []docs.Op, a docs.Applied, m modelResult) {
	b = genBytes(t, "file")
	p = docs.Scan(b)
	ops = genOps(t, len(p.Lines), true, 6)
	m, ok := modelApply(len(p.Lines), ops)
	if !ok {
		t.Fatalf("generated ops do not fit: %+v", ops)
	}
	a, err := docs.ApplyOps(ops, len(p.Lines))
	if err != nil {
		t.Fatalf("ApplyOps refused fitting ops %+v: %v", ops, err)
	}
	return b, p, ops, a, m
}

// edit_keeps_untouched_bytes: every byte outside the edited lines is kept.
// Walking the output piece by piece: the BOM as it was, every kept line's
// text byte for byte and, when it had one, its own ending; new lines and
// separators in between, and nothing else.
func TestLaw_edit_keeps_untouched_bytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b, p, _, a, _ := genEdit(t)
		checkKeptBytes(t, b, a.Pieces, docs.Persist(p, a.Pieces))
	})
}

// edit_writes_new_lines: an edit keeps the lines before, then exactly the
// new lines, then the lines after. The applied pieces are the model's; the
// map and the written lines agree with them; and the file read back has
// those lines.
func TestLaw_edit_writes_new_lines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b, p, ops, a, m := genEdit(t)
		if !slices.Equal(a.Pieces, m.pieces) {
			t.Fatalf("ops %+v on %d lines:\npieces %+v\nwant   %+v", ops, len(p.Lines), a.Pieces, m.pieces)
		}
		if !slices.Equal(a.Map, m.mapping) {
			t.Fatalf("map %v, want %v", a.Map, m.mapping)
		}
		if got := lineSetOf(&a.Written); !slices.Equal(got, m.written) {
			t.Fatalf("written %v, want %v", got, m.written)
		}
		// Read back: the lines are the pieces' texts, in order.
		checkReadBack(t, b, a.Pieces, docs.Persist(p, a.Pieces))
	})
}

// persist_weaves_carry: an edited file is written line by line, each line
// but the last followed by its own ending, else the separator written
// before it.
func TestLaw_persist_weaves_carry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b, p, _, a, _ := genEdit(t)
		if got, want := docs.Persist(p, a.Pieces), weave(b, a.Pieces); !bytes.Equal(got, want) {
			t.Fatalf("Persist of %+v over %q\n= %q\nwant %q", a.Pieces, b, got, want)
		}
	})
}

// lines_carry_is_first: the carry decided from a file's projection is the
// first ending persist starts from: the file's first ending, else LF.
func TestLaw_lines_carry_is_first(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		p := docs.Scan(b)
		hasBOM, lines := refScan(b)
		first := refFirstEnding(lines)
		if got := string(p.FirstEnding().Bytes()); got != first {
			t.Fatalf("FirstEnding = %q, want %q (file %q)", got, first, b)
		}
		text := genNewText(t, "new")
		pieces := append([]docs.Piece{{Text: text}}, keepAll(len(p.Lines))...)
		out := docs.Persist(p, pieces)
		// BOM, the new line, the carry, then the file's lines as they were
		// (an empty file: the new line is the last one, and gets the carry).
		var want []byte
		if hasBOM {
			want = append(want, bom...)
		}
		want = append(want, text...)
		want = append(want, first...)
		want = append(want, b[len(b)-len(bytes.TrimPrefix(b, bom)):]...)
		if !bytes.Equal(out, want) {
			t.Fatalf("insert %q at the start of %q = %q, want %q", text, b, out, want)
		}
	})
}

// lines_write_keeps: a whole-file write keeps the file's BOM and first
// ending, and warns iff both texts have endings and they differ.
func TestLaw_lines_write_keeps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := genBytes(t, "old")
		content := genFile(t, "content", true, 8)
		if rapid.IntRange(0, 4).Draw(t, "contentBOM") == 0 {
			content = append(slices.Clone(bom), content...)
		}
		body := bytes.TrimPrefix(content, bom)
		oldBOM, oldLines := refScan(old)
		newLines := refSplit(body) // a second BOM is text
		oldHas := slices.ContainsFunc(oldLines, func(l refLine) bool { return l.ending != "" })
		newHas := slices.ContainsFunc(newLines, func(l refLine) bool { return l.ending != "" })
		first := refFirstEnding(oldLines)
		out, warn := docs.KeepStyle(docs.Scan(old), content)

		var want []byte
		if oldBOM {
			want = append(want, bom...)
		}
		differ := false
		for _, l := range newLines {
			want = append(want, l.text...)
			switch {
			case l.ending == "":
			case oldHas:
				// A text that ends in a lone CR gets CRLF over an LF file,
				// so it reads back as the line it is (lines_write_keeps
				// meets the line model).
				sep := first
				if first == "\n" && strings.HasSuffix(l.text, "\r") {
					sep = "\r\n"
				}
				want = append(want, sep...)
				differ = differ || l.ending != first
			default:
				want = append(want, l.ending...)
			}
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("KeepStyle(%s, %s) = %s, want %s", short(old), short(content), short(out), short(want))
		}
		if (warn != "") != (oldHas && newHas && differ) {
			t.Fatalf("warning %q; old has endings %v, content has endings %v, they differ %v", warn, oldHas, newHas, differ)
		}
		// Read back: the old file's BOM flag, the content's lines, and,
		// when the old file has endings, only its first ending. (Over a
		// file without a BOM, a content with two BOMs writes one, which
		// reads back as a BOM.)
		if bytes.HasPrefix(body, bom) && !oldBOM {
			return
		}
		wb, wl := refScan(out)
		if wb != oldBOM {
			t.Fatalf("written BOM %v, the file's %v", wb, oldBOM)
		}
		if len(wl) != len(newLines) {
			t.Fatalf("written %d lines, the content has %d", len(wl), len(newLines))
		}
		for i, l := range wl {
			if l.text != newLines[i].text {
				t.Fatalf("written line %d %s, the content's %s", i+1, short(l.text), short(newLines[i].text))
			}
			if oldHas && l.ending != "" && l.ending != first && !strings.HasSuffix(l.text, "\r") {
				t.Fatalf("written ending %q, the file's first is %q", l.ending, first)
			}
		}
	})
}

// Ops that do not fit the file (past its end) or overlap (two replaces
// sharing a line, an insert standing on a replaced line) are refused;
// any others apply as the model says.
func TestApplyOps_refuses_exactly_what_does_not_fit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		ops := genOps(t, n, false, 5)
		m, ok := modelApply(n, ops)
		a, err := docs.ApplyOps(ops, n)
		if (err == nil) != ok {
			t.Fatalf("ops %+v on %d lines: error %v, the model says fit=%v", ops, n, err, ok)
		}
		if ok && !slices.Equal(a.Pieces, m.pieces) {
			t.Fatalf("ops %+v on %d lines:\npieces %+v\nwant   %+v", ops, n, a.Pieces, m.pieces)
		}
	})
}
