package lsp

import (
	"strings"
	"testing"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"pgregory.net/rapid"
)

// Columns are converted both ways in the negotiated encoding, and the
// overlay follows incremental changes exactly, whatever the text holds.

var pieces = []string{"a", "b", " ", "\n", "\r\n", "\r", "é", "ü", "中", "𝄞", "😀", "\t"}

func genText(t *rapid.T, label string) string {
	return strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 40).Draw(t, label), "")
}

func TestPositionsRoundTripInEveryEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genText(t, "text")
		enc := rapid.SampledFrom([]string{"utf-16", "utf-8"}).Draw(t, "enc")
		e := encoding(utf16Enc)
		if enc == "utf-8" {
			e = utf8Enc
		}
		fake := &fakeEditor{opts: editorOpts{enc: enc}}
		tx := newText([]byte(s))
		line := rapid.IntRange(0, strings.Count(s, "\n")+1).Draw(t, "line")
		col := rapid.IntRange(0, 60).Draw(t, "col")
		p := lsproto.Position{Line: uint32(line), Character: uint32(col)}
		if got, want := tx.offset(p, e), fake.offset(s, p); got != want && enc == "utf-16" {
			// the fake stops before a character a column splits; the
			// server after it: both are whole characters
			if !splitsSurrogate(s[min(got, want):max(got, want)]) {
				t.Fatalf("offset(%v) in %q = %d, the editor's conversion %d", p, s, got, want)
			}
		} else if got != want {
			t.Fatalf("offset(%v) in %q = %d, the editor's conversion %d", p, s, got, want)
		}
		// every character boundary converts to a position and back
		for off := range len(s) + 1 {
			if off < len(s) && !isBoundary(s, off) {
				continue
			}
			pos := tx.position(off, e)
			back := tx.offset(pos, e)
			if back != off && !atLineEnding(s, off) {
				t.Fatalf("offset %d in %q → %v → %d", off, s, pos, back)
			}
		}
	})
}

func isBoundary(s string, off int) bool { return off == 0 || s[off]&0xC0 != 0x80 }

// atLineEnding: an offset inside a line's ending (between "\r" and "\n")
// stands at the line's end.
func atLineEnding(s string, off int) bool {
	return off > 0 && s[off-1] == '\r' && off < len(s) && s[off] == '\n'
}

func splitsSurrogate(s string) bool {
	for _, r := range s {
		if r > 0xFFFF {
			return true
		}
	}
	return false
}

func TestOverlayFollowsIncrementalChanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		enc := rapid.SampledFrom([]string{"utf-16", "utf-8"}).Draw(t, "enc")
		e := encoding(utf16Enc)
		if enc == "utf-8" {
			e = utf8Enc
		}
		fake := &fakeEditor{opts: editorOpts{enc: enc}}
		o := newOverlay()
		o.setEncoding(e)
		u := "file:///ws/a.txt"
		b := &fakeBuf{text: genText(t, "start")}
		o.open(uri.URI(u), 0, b.text)
		for i := range rapid.IntRange(1, 20).Draw(t, "changes") {
			lines := strings.Count(b.text, "\n")
			r := lsproto.Range{
				Start: lsproto.Position{Line: uint32(rapid.IntRange(0, lines).Draw(t, "l0")), Character: uint32(rapid.IntRange(0, 8).Draw(t, "c0"))},
			}
			r.End = lsproto.Position{Line: r.Start.Line + uint32(rapid.IntRange(0, 2).Draw(t, "dl")), Character: uint32(rapid.IntRange(0, 8).Draw(t, "c1"))}
			if r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
				r.End.Character = r.Start.Character
			}
			// the editor never splits a character: snap both ends to its
			// own conversion
			r.Start = fake.snap(b.text, r.Start)
			r.End = fake.snap(b.text, r.End)
			if fake.offset(b.text, r.End) < fake.offset(b.text, r.Start) {
				r.End = r.Start
			}
			ch := fake.applyOne(b, r, genText(t, "insert"))
			if err := o.change(uri.URI(u), int32(i+1), []lsproto.TextDocumentContentChangeEvent{ch}); err != nil {
				t.Fatal(err)
			}
			v, _ := o.get("/ws/a.txt")
			if string(v.data) != b.text {
				t.Fatalf("after change %d (%v): overlay %q, editor %q", i, r, v.data, b.text)
			}
			if got := newText(v.data).starts; !equalInts(got, o.byPath["/ws/a.txt"].text.starts) {
				t.Fatalf("line index %v, want %v", o.byPath["/ws/a.txt"].text.starts, got)
			}
		}
	})
}

// snap moves a position to the start of the character it stands in, in the
// editor's own conversion: what an editor sends.
func (e *fakeEditor) snap(text string, p lsproto.Position) lsproto.Position {
	off := e.offset(text, p)
	ls := strings.SplitAfter(text, "\n")
	if int(p.Line) >= len(ls) {
		p.Line = uint32(len(ls) - 1)
	}
	start := 0
	for _, l := range ls[:p.Line] {
		start += len(l)
	}
	line := text[start:off]
	if e.opts.enc == "utf-8" {
		return lsproto.Position{Line: p.Line, Character: uint32(len(line))}
	}
	n := 0
	for _, r := range line {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return lsproto.Position{Line: p.Line, Character: uint32(n)}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNonASCIIColumnsThroughTheEditor(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		t.Run(enc, func(t *testing.T) {
			e := newEditor(t, editorOpts{enc: enc})
			e.put("u.txt", "héllo 𝄞 wörld\n中文 line\nlast 😀 no newline")
			e.open("u.txt")
			// The user types after the non-ASCII characters: the column is
			// in the negotiated encoding.
			col := uint32(len("héllo 𝄞 "))
			if enc == "utf-16" {
				col = uint32(len([]rune("héllo "))) + 2 + 1 // 𝄞 is two UTF-16 units
			}
			e.typeAt("u.txt", 0, col, "big ")
			r := e.tool("read", map[string]any{"path": "u.txt"})
			if !strings.Contains(r.Text, "1:héllo 𝄞 big wörld") {
				t.Fatalf("the overlay misplaced the user's typing:\n%s", r.Text)
			}
			// The agent edits the last line (no newline: its end is a column)
			// and the middle one.
			got := e.tool("edit", map[string]any{"patch": "[u.txt#" + tagOf(t, r.Text) + "]\n@@ 2\n+中文 LINE\n@@ 3\n+last 😀 ended\n"})
			if got.IsError {
				t.Fatalf("reply:\n%s", got.Text)
			}
			want := "héllo 𝄞 big wörld\n中文 LINE\nlast 😀 ended"
			if b := e.buf("u.txt"); b != want {
				t.Fatalf("buffer = %q, want %q", b, want)
			}
		})
	}
}
