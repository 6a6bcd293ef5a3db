package lsp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// oneMB is a 1 MB document of 60-byte lines.
func oneMB() string {
	line := strings.Repeat("x", 59) + "\n"
	return strings.Repeat(line, (1<<20)/len(line))
}

// insertThenDelete are the two changes of a typed-and-erased character in
// the middle of a document, so its size stays put.
func insertThenDelete(line uint32) [2][]lsproto.TextDocumentContentChangeEvent {
	at := lsproto.Position{Line: line, Character: 10}
	after := lsproto.Position{Line: line, Character: 11}
	return [2][]lsproto.TextDocumentContentChangeEvent{
		{&lsproto.TextDocumentContentChangePartial{Range: lsproto.Range{Start: at, End: at}, Text: "y"}},
		{&lsproto.TextDocumentContentChangePartial{Range: lsproto.Range{Start: at, End: after}, Text: ""}},
	}
}

// BenchmarkDidChangeOneCharIn1MB is the overlay's work for a didChange of
// one character in a 1 MB document (target ≤ 100 µs).
func BenchmarkDidChangeOneCharIn1MB(b *testing.B) {
	o := newOverlay()
	u := uri.File("/ws/big.txt")
	text := oneMB()
	o.open(u, 0, text)
	ch := insertThenDelete(uint32(strings.Count(text, "\n") / 2))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := range b.N {
		if err := o.change(u, int32(i+1), ch[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDidChangeOverLSPIn1MB is the same didChange sent by a client over
// the connection (encode, frame, decode, apply), measured to a round trip
// after the last.
func BenchmarkDidChangeOverLSPIn1MB(b *testing.B) {
	e := newEditor(b, editorOpts{})
	text := oneMB()
	e.put("big.txt", text)
	e.openText("big.txt", text)
	u := uri.File(e.path("big.txt"))
	ch := insertThenDelete(uint32(strings.Count(text, "\n") / 2))
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		p := &lsproto.DidChangeTextDocumentParams{
			TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: u}, Version: int32(i + 2)},
			ContentChanges: ch[i%2],
		}
		if err := e.server.DidChange(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	e.sync()
}

// BenchmarkEdit10OpenDocuments is an agent's edit of 10 open documents
// through eukhe/tool, landing verified in the overlay, with the in-process
// editor: one applyEdit for a client that checks every version (VS Code),
// one per document for the others (Neovim).
func BenchmarkEdit10OpenDocuments(b *testing.B) {
	for _, c := range []struct {
		name string
		o    editorOpts
	}{
		{"one-applyEdit", editorOpts{transactional: true}},
		{"per-document", editorOpts{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := newEditor(b, c.o)
			tags := make([]string, 10)
			for k := range tags {
				name := fmt.Sprintf("f%d.go", k)
				e.put(name, strings.Repeat("package p\n\nfunc f() {}\n", 40))
				e.open(name)
				tags[k] = tagOf(b, e.tool("read", map[string]any{"path": name}).Text)
			}
			b.ResetTimer()
			for i := range b.N {
				var patch strings.Builder
				for k := range tags {
					fmt.Fprintf(&patch, "[f%d.go#%s]\n@@ 3\n+func f() { _ = %d }\n", k, tags[k], i)
				}
				got := e.tool("edit", map[string]any{"patch": patch.String()})
				if got.IsError || strings.Contains(got.Text, "NOT") {
					b.Fatalf("edit %d: %s", i, got.Text)
				}
				for k := range tags {
					_, after, _ := strings.Cut(got.Text, fmt.Sprintf("f%d.go#", k))
					tags[k] = after[:8]
				}
			}
		})
	}
}
