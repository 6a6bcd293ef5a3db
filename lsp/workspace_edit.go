package lsp

import (
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
		out[i] = &lsproto.TextEdit{
			Range:   lsproto.Range{Start: t.position(h.oldAt, enc), End: t.position(h.oldEnd, enc)},
			NewText: string(to[h.newAt:h.newEnd]),
		}
	}
	return out
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

// workspaceEdit is one applyEdit's edit: every text edit first, then every
// move, so a client that checks the versions of a run of text edits
// (VS Code) checks them all before anything moves.
func workspaceEdit(es []docEdit, enc encoding) lsproto.WorkspaceEdit {
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
