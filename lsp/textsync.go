package lsp

import (
	"context"

	lsproto "go.lsp.dev/protocol"
)

// Text sync: the overlay follows the editor's documents. These run inline
// on the read loop, in the order the editor sent them.

func (r *rpc) DidOpen(_ context.Context, p *lsproto.DidOpenTextDocumentParams) error {
	d := p.TextDocument
	r.s.ov.open(d.URI, d.Version, d.Text)
	return nil
}

func (r *rpc) DidChange(_ context.Context, p *lsproto.DidChangeTextDocumentParams) error {
	return r.s.ov.change(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges)
}

func (r *rpc) DidClose(_ context.Context, p *lsproto.DidCloseTextDocumentParams) error {
	r.s.ov.close(p.TextDocument.URI)
	return nil
}

// DidSave needs nothing: whether a document has unsaved changes is
// decided when it matters, by comparing its text with the disk's.
func (r *rpc) DidSave(context.Context, *lsproto.DidSaveTextDocumentParams) error { return nil }
