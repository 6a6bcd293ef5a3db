package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// save asks the editor to save the documents an edit landed in that had
// no unsaved changes before it (eukhe/saveDocuments, when the client
// implements it). A document the user had unsaved changes in is not saved
// behind their back. Every landed document whose file on disk then differs
// from its new text gets a warning saying so.
//
// The editor saves by name, following whatever links the name has then,
// so each save is judged by the name's real path now (realpath.go): right
// before the request, a document whose name no longer resolves to the
// real path the commit checked is not saved (nor is one left unsaved
// kept: its user's next save would follow the name), and the edit is taken
// out of its buffer again; right after, a name that resolves elsewhere than
// before the request (swapped during the save) is told in the outcome and
// the log, with the file the save may have written.
func (s *Server) save(ps []*planned, res *docs.Committed) {
	caps := s.capabilities()
	var uris []string
	var asked []*planned
	refused := map[*planned]bool{}
	takenBack, typed, unknown := map[*planned]bool{}, map[*planned]bool{}, map[*planned]bool{}
	for _, p := range ps {
		if res.Outcomes[p.i].Fate != docs.Landed {
			continue
		}
		// Every landed document is judged, saved or not: one left unsaved
		// would carry the edit to wherever its name points at the user's
		// next save.
		err := s.judgeSave(p)
		if err == nil {
			err = judgeSavedFile(p)
		}
		if err != nil {
			refused[p] = true
			s.refuseSave(p, &res.Outcomes[p.i], err)
			continue
		}
		switch s.heldSince(p) {
		case takenBackSince:
			takenBack[p] = true // saving it would save what the user did since
			continue
		case typedSince:
			typed[p] = true // the same: the user's keystrokes are theirs to save
			continue
		case unknownSince:
			unknown[p] = true // it may hold anything: saved, the user's typing too
			continue
		}
		if !p.dirty && caps.implements(protocol.MethodSaveDocuments) {
			uris = append(uris, string(targetURI(p)))
			asked = append(asked, p)
		}
	}
	var saveErr error
	if len(uris) > 0 {
		saveErr = s.saveDocuments(uris)
	}
	for _, p := range asked {
		if err := s.judgeSave(p); err != nil {
			refused[p] = true
			o := &res.Outcomes[p.i]
			now := s.ov.resolve(p.edit().target()).Path
			o.Warning = "its name changed while the editor saved it (" + err.Error() + "): the editor's save may have written " + now + " instead; check that file"
			s.logf("the save of %s may have written %s: its name was swapped during the save", p.edit().target(), now)
		}
	}
	for _, p := range ps {
		if refused[p] {
			continue
		}
		e := p.edit()
		if b, err := s.readSaved(p, e); err == nil && bytes.Equal(b, e.to) {
			continue
		}
		o := &res.Outcomes[p.i]
		switch {
		case takenBack[p]:
			o.Warning = "it landed, and right after, its lines changed in the editor (the user typed on them, or undid the edit): the buffer no longer holds the edit as sent, and it was not saved; read it again"
		case unknown[p]:
			o.Warning = "its text in the editor is not known to eukhe since the edit landed (" + s.lostWhy(p) + "), so it was left unsaved: the file on disk differs until it is saved there"
		case typed[p]:
			o.Warning = "its buffer changed in the editor while the edit landed (the user typed, or it was opened again) and holds those changes too, so it was left unsaved: eukhe saves only a document that holds nothing unsaved but the edit; the file on disk differs until it is saved there"
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

// What an open document that landed an edit holds besides it.
type since int

const (
	onlyTheEdit since = iota // its text is the edit's (or it is not known)
	// unknownSince: its text is not known (lost: a change came out of
	// order); it may hold the user's typing
	unknownSince
	// typedSince: the edit, and the user's changes on other lines (typed
	// while it landed; a rebased edit went in around them)
	typedSince
	// takenBackSince: not the edit any more: its lines changed back in the
	// editor (an undo told in the same didChange as the edit,
	// overlay.applyChanges)
	takenBackSince
)

// heldSince tells what an open document that landed p's edit holds now
// besides the edit. A rebased edit's text holds the user's typing by
// making.
func (s *Server) heldSince(p *planned) since {
	e := p.edit()
	v, open := s.ov.get(e.target())
	switch {
	case !open:
		return onlyTheEdit
	case v.lost != nil:
		return unknownSince
	case !holds(e.from, e.to, v.data):
		return takenBackSince
	case p.rebased || !bytes.Equal(v.data, e.to):
		return typedSince
	}
	return onlyTheEdit
}

// lostWhy says why the text of p's document is not known.
func (s *Server) lostWhy(p *planned) string {
	if v, open := s.ov.get(p.edit().target()); open && v.lost != nil {
		return v.lost.Error()
	}
	return "it was closed"
}

// judgeSave tells why a document must not be saved: its name (the move's
// destination for a move) resolves now to another real path than the
// commit checked.
func (s *Server) judgeSave(p *planned) error {
	name := p.edit().target()
	if p.real == "" {
		return nil
	}
	return judgeOpened(name, gate.RealPath{Path: p.real}, s.ov.resolve(name))
}

// judgeSavedFile tells why a document must not be saved though its name
// still resolves as checked: the file there is not the one the commit
// checked (another was renamed over it — a second name of .git/config
// would then be written by the editor's in-place save, the third red
// team's), or, where there was none (a new file), the one there now has
// other names, any of which may be protected. It is asked right before
// the save only: an editor's own save may replace the file (a rename of
// its temporary file), which changes no name it writes.
func judgeSavedFile(p *planned) error {
	now := fileIDOf(p.real)
	switch {
	case p.file.exists && !now.exists:
		return fmt.Errorf("%s was removed while the edit reached the editor: close and reopen it in the editor, then retry", p.real)
	case p.file.known && (!now.known || now.dev != p.file.dev || now.ino != p.file.ino):
		return fmt.Errorf("%s is another file than when the edit was checked (one was renamed over it while the edit reached the editor): close and reopen it in the editor, then retry", p.real)
	case !p.file.exists && now.known && now.links > 1:
		return fmt.Errorf("%s was made while the edit reached the editor, with %d names (a hard link, maybe of a protected file): close it in the editor, remove its other names, then retry", p.real, now.links)
	}
	return nil
}

// refuseSave leaves a document unsaved whose name resolves elsewhere now,
// and takes the edit out of its buffer again, so that no later save by
// the user writes the agent's text there.
func (s *Server) refuseSave(p *planned, o *docs.Outcome, why error) {
	s.logf("not saving %s: %v", p.edit().target(), why)
	if err := s.putBack(p.edit()); err != nil {
		o.Warning = "NOT saved: " + why.Error() + "; taking the edit out of the editor's buffer failed too (" + err.Error() + "): do not save that buffer"
		return
	}
	*o = docs.Outcome{Fate: docs.Failed, Err: fmt.Errorf("the editor was not asked to save it, and the edit was taken out of its buffer again: %w", why)}
}

// readSaved reads what the save landed at the real path the commit
// checked, through no link; by name when none is known.
func (s *Server) readSaved(p *planned, e docEdit) ([]byte, error) {
	if p.real == "" {
		return os.ReadFile(e.target())
	}
	snap, err := s.disk.ReadNoLinks(p.real)
	if err != nil {
		return nil, err
	}
	if !snap.Stat.Exists {
		return nil, os.ErrNotExist
	}
	b := bytes.Clone(snap.Data)
	snap.Release()
	return b, nil
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
