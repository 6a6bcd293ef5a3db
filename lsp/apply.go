package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/eukhe/eukhe/protocol"
	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
)

// applied is what became of one docEdit.
type applied struct {
	sent        bool // it went to the editor
	landed      bool // the document reached its new text
	unconfirmed bool // the editor took it, and its landing is not seen yet
	// editorApplied: the editor answered applied: true (and no later
	// didChange showed it skipped the edit). It applied the edit: eukhe
	// never takes it back because its didChange is late (vim-lsp tells
	// 2.5 s after its answer).
	editorApplied bool
	// stale: nothing of it was applied (not sent, refused, or skipped by
	// the editor) because its buffer moved on from the text it was made
	// on: the user typed. It may be rebased on the new text and sent again
	// (rebase.go).
	stale bool
	// refused: the editor answered applied: false, or (a client whose
	// refusal does not prove that nothing was applied) an error; its
	// didChange may still be on its way (awaitMoved)
	refused bool
	err     error // why it did not land (or is not confirmed)
	watch   *watch
}

// apply sends edits to the editor and verifies each: a document landed iff
// the overlay reaches its new text through the didChange that follows
// (landing.go); a move landed iff its destination holds the new text, in
// the editor or on disk.
//
// A client that checks every version of a workspace edit before applying
// any (VS Code) gets one applyEdit with all of them. Any other client
// (Neovim checks only the first document's version, and answers applied:
// true for a stale buffer it skipped) gets one applyEdit per document, so
// each is checked against its version, in order: apply stops at the first
// document that did not land; the rest are not sent (unless all is set:
// putting documents back tries every one).
func (s *Server) apply(es []docEdit, all bool) []applied {
	out := make([]applied, len(es))
	caps := s.capabilities()
	enc := s.ov.encoding()
	batches := [][]int{}
	if caps.checksEveryVersion() {
		every := make([]int, len(es))
		for i := range es {
			every[i] = i
		}
		batches = append(batches, every)
	} else {
		for i := range es {
			batches = append(batches, []int{i})
		}
	}
	for _, batch := range batches {
		part := make([]docEdit, len(batch))
		for k, i := range batch {
			part[k] = es[i]
		}
		res := s.applyBatch(part, enc, caps)
		typing := time.Now().Add(s.opts.TypingWait)
		// sent again while the user types, up to TypingWait from the
		// first send (maxRebases a backstop): a count alone ran out under
		// load, where keystrokes came further apart than typingPause and
		// each send met the next one (the real VS Code test in a CI
		// rehearsal: 4 of 5 edits landed)
		for try := 1; try < maxRebases && time.Now().Before(typing) && s.rebaseStale(part, s.awaitPause(part, s.awaitMoved(part, res, caps), typing)); try++ {
			res = s.applyBatch(part, enc, caps)
		}
		for k := range res {
			if res[k].refused && res[k].watch != nil { // kept for an awaitMoved that did not come
				s.ov.unwatch(res[k].watch)
				res[k].watch = nil
			}
		}
		for k, i := range batch {
			es[i] = part[k] // the edit as last sent: rebased, it is the one that landed
		}
		ok := true
		for k, i := range batch {
			out[i] = res[k]
			ok = ok && res[k].landed
		}
		if !ok && !all {
			break
		}
	}
	return out
}

// applyBatch sends one applyEdit and waits for its documents to land.
// A document whose buffer moved on before anything of it was applied is
// marked stale (rebaseStale).
func (s *Server) applyBatch(es []docEdit, enc encoding, caps clientCaps) []applied {
	out := make([]applied, len(es))
	client, _, life, ok := s.editor()
	if !ok {
		for i := range out {
			out[i] = applied{err: fmt.Errorf("%w (it went away during the edit)", errEditorGone)}
		}
		return out
	}
	// Right before sending: every document still holds the text the edit
	// was made on, at its version. A client sent edits without versions
	// checks nothing itself, and Neovim checks no version 0 (probe.go).
	for i, e := range es {
		if e.version == 0 && caps.skipsVersionZero() {
			var err error
			if es[i], err = s.probe(life, client, e); err != nil {
				out[i].err = err
				return out
			}
			e = es[i]
		}
		if why := s.moved(e); why != nil {
			out[i].err = why
			out[i].stale = s.movedOn(e)
			return out // nothing of this batch is sent
		}
	}
	ws := make([]*watch, len(es))
	sig := make(chan struct{}, 1)
	for i, e := range es {
		ws[i] = s.ov.watch(e.target(), e.from, e.to, sig)
		out[i].sent = true
		out[i].watch = ws[i]
	}
	edit := workspaceEdit(es, enc, caps.versioned())
	if empty(edit) {
		s.ov.unwatch(ws...)
		for i := range out {
			out[i].landed = true // nothing to change: the text is already the new one
		}
		return out
	}
	ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
	params := &lsproto.ApplyWorkspaceEditParams{Edit: edit}
	if !caps.printsLabel() {
		params.Label = ptr("eukhe: the agent's edit")
	}
	res, err := s.sendEdit(ctx, client, params, es, caps)
	cancel()
	// The versions from which a didChange tells a buffer that has the edit
	// if it was applied: for a client that applies before it answers and
	// tells in order, those after its answer; for Neovim, which skips an
	// edit whose buffer is newer (above version 0), any after the edit's.
	var after []int32
	if err == nil && s.ov.ordered() {
		after = make([]int32, len(es))
		for i, e := range es {
			after[i] = s.ov.version(e.path)
			if caps.name == "Neovim" && e.version > 0 {
				after[i] = e.version
			}
		}
	}
	var why error
	noAnswer := false
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errEditorNotReading)) && life.Err() == nil:
		// Sent (or queued to be sent whole), not answered in time: it may
		// still land. Not a refusal: the landing is followed (follow).
		noAnswer = true
	case err != nil:
		why = fmt.Errorf("the editor did not answer the edit request (%v)", err)
	case !res.Applied:
		reason := "it gave no reason"
		if res.FailureReason != nil && *res.FailureReason != "" {
			reason = *res.FailureReason
		}
		why = fmt.Errorf("the editor refused the edit (%s)", reason)
	}
	var reached, skipped []bool
	if why != nil && (caps.checksEveryVersion() || len(es) == 1) {
		// A refusal is known: a transactional client applied nothing, and a
		// single document has nothing else to wait for.
		// It is still looked at once: applied: false is not proof either.
		reached = await(doneCtx(), ws)
	} else {
		reached, skipped = s.awaitLanding(life, es, ws, sig, after)
	}
	passed := make([]bool, len(es))
	for i, e := range es {
		switch {
		case reached[i]:
			out[i].landed = true
		case noAnswer:
			out[i].unconfirmed = true
			out[i].err = fmt.Errorf("it was sent to the editor, which did not answer within %v (stopped or busy?): not confirmed", s.opts.CallTimeout)
		case why != nil:
			out[i].err = why
			// refused whole (a client that checks every version) or alone:
			// nothing of it applied (a client whose refusal proves nothing
			// may have applied it: awaitMoved looks); stale when the user
			// typed meanwhile
			out[i].stale = s.movedOn(e)
			out[i].refused = err == nil || !caps.refusalAppliesNothing()
		case s.ov.passedThrough(ws[i]):
			// applied and taken back at once, or typing through the same
			// text: not known, and not sent again over an undo; not
			// followed either (every such edit would leave a watch that
			// each later change pays for, and a multi-file edit's would
			// put back what the user types the same later)
			out[i].unconfirmed, passed[i] = true, true
			out[i].err = errors.New("its buffer showed the edit's text and then changed back within one change notification of the editor's (it applied the edit and the user took it back at once, or the user's typing went through the same text), so it was not sent again: read it again, and redo the edit if it is still wanted")
		case skipped != nil && skipped[i] && s.backToBase(e):
			// a skip is inferred from the text: one back to the edit's
			// base is also the edit applied and undone by the user at once
			// (in one didChange): sent again, it would undo the user's undo
			out[i].err = errors.New("its buffer changed in the editor and is back to the text the edit was made on: the editor skipped the edit, or applied it and the user took it back at once; it was not sent again: read it again and redo the edit if it is still wanted")
		case skipped != nil && skipped[i]:
			out[i].err = errors.New("its buffer changed in the editor (someone typed?) before the edit reached it, and the editor skipped it: it did not land")
			out[i].stale = s.movedOn(e)
		default:
			out[i].unconfirmed = true
			out[i].editorApplied = err == nil && res.Applied
			out[i].err = s.notLanded(e)
		}
	}
	for i := range out {
		// a refusal that proves nothing keeps its watch for awaitMoved:
		// the edit's own change may come later, and be typed over at once
		if passed[i] || !out[i].unconfirmed && !(out[i].refused && !caps.refusalAppliesNothing()) {
			s.ov.unwatch(ws[i])
			out[i].watch = nil
		}
	}
	return out
}

// moved says why an open document no longer holds the text an edit was
// made on, or nil when it does.
func (s *Server) moved(e docEdit) error {
	v, open := s.ov.get(e.path)
	switch {
	case !open:
		return fmt.Errorf("it was closed in the editor before the edit was sent; nothing was sent to it")
	case v.lost != nil:
		return v.lost
	case !e.back && s.ov.judge(v) != nil:
		return fmt.Errorf("nothing was sent to it: %w", s.ov.judge(v))
	case v.version != e.version || !bytes.Equal(v.data, e.from):
		return fmt.Errorf("its buffer changed in the editor (version %d → %d: someone typed?) before the edit was sent, so nothing was sent to it: read it again and redo the edit", e.version, v.version)
	}
	return nil
}

// landed adds to the overlay watches the disk's view of moves: Neovim
// moves a file and writes the buffer to the new name, which may not be
// open afterwards.
func (s *Server) landed(ctx context.Context, es []docEdit, ws []*watch) []*watch {
	for i, e := range es {
		if e.moveTo == "" {
			continue
		}
		w := ws[i]
		go func() {
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				if b, err := os.ReadFile(e.moveTo); err == nil && bytes.Equal(b, e.to) {
					if _, err := os.Lstat(e.path); os.IsNotExist(err) {
						s.ov.reach(w)
						return
					}
				}
				select {
				case <-ctx.Done():
					return
				case <-w.reached:
					return
				case <-tick.C:
				}
			}
		}()
	}
	return ws
}

// notLanded says why the landing of a document the editor took is not
// confirmed: the editor may still apply it, or may have skipped it; the
// agent is never told it did not land.
func (s *Server) notLanded(e docEdit) error {
	v, open := s.ov.get(e.path)
	switch {
	case e.moveTo != "":
		return errors.New("the editor took the move, and the moved file is not seen yet (is the destination taken, or the file not writable?)")
	case !open:
		return errors.New("it was closed in the editor while the edit was on its way")
	case v.lost != nil:
		return v.lost
	case v.version != e.version:
		return fmt.Errorf("its buffer kept changing in the editor (version %d → %d: someone is typing?), and the edit is not seen in it yet", e.version, v.version)
	}
	return errors.New("the editor took the edit, and its buffer has not shown it yet")
}

func ptr[T any](v T) *T { return &v }

// sendEdit sends workspace/applyEdit; to a client that checks texts
// (protocol.ChecksTexts) with the hash of the text each document's edit
// was made on, so that a document closed and opened again at the same
// version does not take an edit made on its old text.
func (s *Server) sendEdit(ctx context.Context, client lsproto.Client, params *lsproto.ApplyWorkspaceEditParams, es []docEdit, caps clientCaps) (*lsproto.ApplyWorkspaceEditResult, error) {
	_, conn, _, ok := s.editor()
	if !caps.eukhe.ChecksTexts || !ok {
		return client.ApplyEdit(ctx, params)
	}
	texts := protocol.EditTexts{Texts: map[string]string{}}
	for _, e := range es {
		texts.Texts[string(e.uri)] = protocol.TextHash(e.from)
	}
	b, err := codec{}.Marshal(params)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	if fields[protocol.EditTextsField], err = json.Marshal(texts); err != nil {
		return nil, err
	}
	if b, err = json.Marshal(fields); err != nil {
		return nil, err
	}
	var raw jsonrpc2.RawMessage
	if _, err := conn.Call(ctx, lsproto.MethodWorkspaceApplyEdit, jsonrpc2.RawMessage(b), &raw); err != nil {
		return nil, err
	}
	var res lsproto.ApplyWorkspaceEditResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("its answer to workspace/applyEdit is not one (%v)", err)
	}
	return &res, nil
}
