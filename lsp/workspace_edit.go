package lsp

import (
	"bytes"
	"unicode/utf8"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// docEdit is one open document's change as the editor gets it.
type docEdit struct {
	uri      uri.URI // as the editor named it
	path     string
	version  int32  // the version the text below is
	from, to []byte // the text it holds, the text it gets
	moveTo   string // "" or the path it moves to
	back     bool   // it takes an edit out again: sent even when the name resolves elsewhere now
}

// target is where the document ends up.
func (e docEdit) target() string {
	if e.moveTo != "" {
		return e.moveTo
	}
	return e.path
}

// textEdits are the minimal line-range edits from e.from to e.to, in the
// positions of e.from: lines outside them (and the cursors and marks on
// them) stay as they are.
func textEdits(from, to []byte, enc encoding) []lsproto.TextDocumentEditElement {
	hs := hunks(from, to)
	if len(hs) == 0 {
		return nil
	}
	t := newText(from)
	out := make([]lsproto.TextDocumentEditElement, len(hs))
	for i, h := range hs {
		at, end, text := inside(from, h.oldAt, h.oldEnd, to[h.newAt:h.newEnd])
		at, end, text = trimCommon(from, at, end, text)
		out[i] = &lsproto.TextEdit{
			Range:   lsproto.Range{Start: t.position(at, enc), End: t.position(end, enc)},
			NewText: string(text),
		}
	}
	return out
}

// inside moves a hunk that reaches the end of a text ending in a newline
// so that it ends before that newline, with the same result: Neovim
// applies an edit that ends past the last line as two buffer changes (a
// line added, then the extra line removed), and the second waits out its
// didChange debounce before the edit can be seen to land.
func inside(from []byte, at, end int, text []byte) (int, int, []byte) {
	n := len(from)
	if end != n || n == 0 || from[n-1] != '\n' {
		return at, end, text
	}
	nl := []byte("\n") // the last line's ending: the range may not end inside a CRLF
	if n > 1 && from[n-2] == '\r' {
		nl = []byte("\r\n")
	}
	k := len(nl)
	switch {
	case bytes.HasSuffix(text, nl):
		if at == end { // an append: after the last line's text
			return n - k, n - k, append(bytes.Clone(nl), text[:len(text)-k]...)
		}
		return at, n - k, text[:len(text)-k]
	case len(text) == 0 && at >= k && at < end && bytes.Equal(from[at-k:at], nl): // the last lines go, with the ending before them
		return at - k, n - k, text
	}
	return at, end, text
}

// trimCommon narrows the replacement of from[at:end] by text to the bytes
// that differ: the common head and tail stay out of the range. A client
// that applies the edit over text eukhe has not seen yet — Eglot holds a
// user's typing until a pause, and applies an edit at the version it last
// sent — then keeps what the user typed beside the change instead of
// replacing it with the line as eukhe last saw it. A cut never splits a
// UTF-8 character or a CRLF ending (a position inside either means
// nothing to a client).
func trimCommon(from []byte, at, end int, text []byte) (int, int, []byte) {
	old := from[at:end]
	p := 0
	for p < len(old) && p < len(text) && old[p] == text[p] {
		p++
	}
	for p > 0 && !cuttable(old, p) {
		p--
	}
	s := 0
	for s < len(old)-p && s < len(text)-p && old[len(old)-1-s] == text[len(text)-1-s] {
		s++
	}
	for s > 0 && !cuttable(old, len(old)-s) {
		s--
	}
	return at + p, end - s, text[p : len(text)-s]
}

// cuttable tells whether a range may start or end at b[i]: not inside a
// UTF-8 character, not between the CR and LF of a line ending.
func cuttable(b []byte, i int) bool {
	if i <= 0 || i >= len(b) {
		return true
	}
	return utf8.RuneStart(b[i]) && !(b[i-1] == '\r' && b[i] == '\n')
}

// changes are a document's entries of a workspace edit: its text edits at
// its exact version, then its move, which never replaces a file.
func (e docEdit) changes(enc encoding) []lsproto.DocumentChange {
	var out []lsproto.DocumentChange
	if edits := textEdits(e.from, e.to, enc); len(edits) > 0 {
		v := e.version
		out = append(out, &lsproto.TextDocumentEdit{
			TextDocument: lsproto.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: e.uri},
				Version:                &v,
			},
			Edits: edits,
		})
	}
	if e.moveTo != "" {
		no := false
		out = append(out, &lsproto.RenameFile{
			Kind:    "rename",
			OldURI:  e.uri,
			NewURI:  uri.File(e.moveTo),
			Options: &lsproto.RenameFileOptions{Overwrite: &no},
		})
	}
	return out
}

// workspaceEdit is one applyEdit's edit, shaped by what the client
// announced. With versioned edits: every text edit first, then every move,
// so a client that checks the versions of a run of text edits (VS Code)
// checks them all before anything moves. Without (no documentChanges):
// the text edits by URI, with no version, the client checking none (the
// server checks the version right before sending, and the text after);
// such a client is never sent a move (check refuses it first).
func workspaceEdit(es []docEdit, enc encoding, versioned bool) lsproto.WorkspaceEdit {
	if !versioned {
		changes := map[uri.URI][]lsproto.TextEdit{}
		for _, e := range es {
			for _, el := range textEdits(e.from, e.to, enc) {
				changes[e.uri] = append(changes[e.uri], *el.(*lsproto.TextEdit))
			}
		}
		return lsproto.WorkspaceEdit{Changes: changes}
	}
	var texts, moves []lsproto.DocumentChange
	for _, e := range es {
		for _, c := range e.changes(enc) {
			if _, ok := c.(*lsproto.RenameFile); ok {
				moves = append(moves, c)
			} else {
				texts = append(texts, c)
			}
		}
	}
	return lsproto.WorkspaceEdit{DocumentChanges: append(texts, moves...)}
}

// empty tells whether a workspace edit changes nothing.
func empty(w lsproto.WorkspaceEdit) bool {
	return len(w.DocumentChanges) == 0 && len(w.Changes) == 0
}
