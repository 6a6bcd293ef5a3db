package lsp

import (
	"bytes"
	"context"
	"fmt"
	"time"

	lsproto "go.lsp.dev/protocol"
)

// Neovim applies a text edit at version 0 without any check (it checks
// only versions above 0), and 0 is the version of a buffer whose first
// change it has not told yet: its debounce holds the first report back
// as long as the user keeps typing. An edit sent then overwrites text the
// server has not seen. So an edit of a document still at version 0, to
// Neovim without the eukhe plugin (whose applyEdit handler checks every
// version, 0 included), is preceded by a probe: an empty edit (an empty
// insert at the start, which changes no text) that makes Neovim count a
// change and tell every change it held. Once the overlay is past version
// 0, the edit is made again over what the user typed meanwhile
// (rebase.go), or refused when the typing touched its lines.

// skipsVersionZero tells whether the client applies an edit at version 0
// unchecked: Neovim without the eukhe plugin (which says checksVersions).
func (c clientCaps) skipsVersionZero() bool {
	return c.name == "Neovim" && !c.eukhe.ChecksVersions
}

// probe brings a document at version 0 past it, and gives the edit at the
// version it then has; an error when the document moved (nothing of the
// edit is sent then).
func (s *Server) probe(life context.Context, client lsproto.Client, e docEdit) (docEdit, error) {
	zero := int32(0)
	ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
	res, err := client.ApplyEdit(ctx, &lsproto.ApplyWorkspaceEditParams{Edit: lsproto.WorkspaceEdit{
		DocumentChanges: []lsproto.DocumentChange{&lsproto.TextDocumentEdit{
			TextDocument: lsproto.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: e.uri},
				Version:                &zero,
			},
			Edits: []lsproto.TextDocumentEditElement{&lsproto.TextEdit{}},
		}},
	}})
	cancel()
	switch {
	case err != nil:
		return e, fmt.Errorf("the editor did not answer (%v); nothing of the edit was sent", err)
	case !res.Applied:
		return e, fmt.Errorf("the editor was asked to tell its pending changes first and refused; nothing of the edit was sent")
	}
	deadline := time.Now().Add(s.opts.TypingWait)
	for {
		v, open := s.ov.get(e.path)
		switch {
		case !open:
			return e, fmt.Errorf("it was closed in the editor; nothing was sent to it")
		case v.lost != nil:
			return e, v.lost
		case v.version > 0:
			if !bytes.Equal(v.data, e.from) {
				// the user typed: the edit is made again over it (rebase.go)
				return s.rebaseOn(e, v)
			}
			e.version = v.version
			return e, nil
		case time.Now().After(deadline):
			return e, fmt.Errorf("the editor has not told its changes of it for %v (someone is typing?), so nothing was sent to it: read it again and redo the edit", s.opts.TypingWait)
		}
		if !s.ov.waitChange(life, e.path, time.Until(deadline)) {
			continue
		}
	}
}

// printsLabel tells whether the client prints a workspace edit's label as
// a message (Neovim 0.7 does, for every edit: with its own "newer than
// edits" message, two lines that can raise a hit-enter prompt, which
// takes the user's next keystroke). Such a client gets no label.
func (c clientCaps) printsLabel() bool {
	return c.name == "Neovim" || c.eukhe.Kind == "nvim"
}
