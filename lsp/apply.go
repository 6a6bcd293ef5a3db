package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	lsproto "go.lsp.dev/protocol"
)

// applied is what became of one docEdit.
type applied struct {
	sent   bool  // it went to the editor
	landed bool  // the document reached its new text
	err    error // why it did not land
}

// apply sends edits to the editor and verifies each: a document landed iff
// the overlay reaches its new text through the didChange that follows
// (bounded by LandingWait); a move landed iff its destination holds the new
// text, in the editor or on disk.
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
func (s *Server) applyBatch(es []docEdit, enc encoding, caps clientCaps) []applied {
	out := make([]applied, len(es))
	client, _, life, ok := s.editor()
	if !ok {
		for i := range out {
			out[i] = applied{sent: true, err: fmt.Errorf("%w (it went away during the edit)", errEditorGone)}
		}
		return out
	}
	ws := make([]*watch, len(es))
	for i, e := range es {
		ws[i] = s.ov.watch(e.target(), e.to)
		out[i].sent = true
	}
	defer s.ov.unwatch(ws...)
	edit := workspaceEdit(es, enc)
	if len(edit.DocumentChanges) == 0 {
		for i := range out {
			out[i].landed = true // nothing to change: the text is already the new one
		}
		return out
	}
	ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
	res, err := client.ApplyEdit(ctx, &lsproto.ApplyWorkspaceEditParams{
		Label: ptr("eukhe: the agent's edit"),
		Edit:  edit,
	})
	cancel()
	var why error
	switch {
	case err != nil:
		why = fmt.Errorf("the editor did not answer the edit request (%v)", err)
	case !res.Applied:
		reason := "it gave no reason"
		if res.FailureReason != nil && *res.FailureReason != "" {
			reason = *res.FailureReason
		}
		why = fmt.Errorf("the editor refused the edit (%s)", reason)
	}
	wait := s.opts.LandingWait
	if why != nil && caps.checksEveryVersion() {
		wait = 0 // a transactional refusal applied nothing
	}
	wctx, wcancel := context.WithTimeout(life, wait)
	reached := await(wctx, s.landed(wctx, es, ws))
	wcancel()
	for i, e := range es {
		switch {
		case reached[i]:
			out[i].landed = true
		case why != nil:
			out[i].err = why
		default:
			out[i].err = s.notLanded(e)
		}
	}
	return out
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

// notLanded says why a document the editor was sent did not reach its new
// text.
func (s *Server) notLanded(e docEdit) error {
	v, open := s.ov.get(e.path)
	wait := s.opts.LandingWait
	switch {
	case e.moveTo != "":
		return fmt.Errorf("the editor did not move it within %v (is the destination taken, or the file not writable?)", wait)
	case !open:
		return errors.New("it was closed in the editor while the edit was on its way")
	case v.version != e.version:
		return fmt.Errorf("its buffer changed in the editor (version %d → %d: someone typed?) while the edit was on its way, so the edit did not land there", e.version, v.version)
	}
	return fmt.Errorf("the editor said it applied the edit, but its buffer did not change to the edited text within %v", wait)
}

func ptr[T any](v T) *T { return &v }
