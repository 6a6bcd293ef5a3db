package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// save asks the editor to save the documents an edit landed in that had
// no unsaved changes before it (eukhe/saveDocuments, when the client
// implements it). A document the user had unsaved changes in is not saved
// behind their back. Every landed document whose file on disk then differs
// from its new text gets a warning saying so.
func (s *Server) save(ps []*planned, res *docs.Committed) {
	caps := s.capabilities()
	var uris []string
	for _, p := range ps {
		if res.Outcomes[p.i].Fate == docs.Landed && !p.dirty && caps.implements(protocol.MethodSaveDocuments) {
			uris = append(uris, string(targetURI(p)))
		}
	}
	var saveErr error
	if len(uris) > 0 {
		saveErr = s.saveDocuments(uris)
	}
	for _, p := range ps {
		e := p.edit()
		if b, err := os.ReadFile(e.target()); err == nil && bytes.Equal(b, e.to) {
			continue
		}
		o := &res.Outcomes[p.i]
		switch {
		case p.dirty:
			o.Warning = "it had unsaved changes in the editor before this edit, so it was left unsaved: the file on disk differs from the text you edited until it is saved there"
		case !caps.implements(protocol.MethodSaveDocuments):
			o.Warning = "the edit is in the editor's buffer, unsaved (this editor cannot be asked to save): the file on disk differs until it is saved there"
		case saveErr != nil:
			o.Warning = "saving it in the editor failed (" + saveErr.Error() + "): the file on disk differs until it is saved there"
		default:
			o.Warning = "the editor did not save it: the file on disk differs until it is saved there"
		}
	}
}

// targetURI is the URI a planned document has after its change.
func targetURI(p *planned) uri.URI {
	if p.c.MoveTo != "" {
		return uri.File(p.c.MoveTo)
	}
	return p.v.uri
}

// saveDocuments sends eukhe/saveDocuments and waits for the answer.
func (s *Server) saveDocuments(uris []string) error {
	_, conn, life, ok := s.editor()
	if !ok {
		return errEditorGone
	}
	ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
	defer cancel()
	var raw jsonrpc2.RawMessage
	return call(ctx, conn, protocol.MethodSaveDocuments, protocol.SaveDocumentsParams{URIs: uris}, &raw)
}

// call sends an eukhe/* request; its params and result are encoded with
// encoding/json (the types of package protocol are plain Go).
func call(ctx context.Context, conn jsonrpc2.Conn, method string, params any, result *jsonrpc2.RawMessage) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	_, err = conn.Call(ctx, method, jsonrpc2.RawMessage(b), result)
	return err
}

// notify sends an eukhe/* notification.
func notify(ctx context.Context, conn jsonrpc2.Conn, method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return conn.Notify(ctx, method, jsonrpc2.RawMessage(b))
}
