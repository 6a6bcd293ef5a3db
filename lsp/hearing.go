package lsp

import (
	"time"
)

// Whether the editor answers requests at all. JSON-RPC has every request
// answered, "method not found" included, and eukhe falls back from a
// dialog form only on that answer (afterFailure). ALE, Vim's LSP client,
// answers no request of the server's: its questions were dropped unseen
// and each waited the whole approval timeout, then counted as a no
// (test/vim). So at initialized eukhe asks the editor one plain request
// (workspace/workspaceFolders); an editor that has not answered it in
// hearingWait is deaf: it cannot show questions (Present is false, the
// question it holds is taken back from it, and the user is told once),
// until its answer comes late, which makes it heard again.

// hearingWait is how long the editor has to answer eukhe's first request.
var hearingWait = 5 * time.Second

// listen asks the editor its workspace folders and marks it deaf while
// the answer is past hearingWait.
func (e *editorApprover) listen() {
	client, _, life, ok := e.s.editor()
	if !ok {
		return
	}
	answered := make(chan struct{})
	go func() {
		_, _ = client.WorkspaceFolders(life) // any answer, an error too, is one
		close(answered)
	}()
	timer := time.NewTimer(e.wait)
	defer timer.Stop()
	select {
	case <-answered:
		return
	case <-life.Done():
		return
	case <-e.gone:
		return
	case <-timer.C:
	}
	e.setDeaf(true)
	select {
	case <-answered:
		if life.Err() == nil {
			e.setDeaf(false)
		}
	case <-life.Done():
	case <-e.gone:
	}
}

// setDeaf marks the editor deaf (its questions taken back, the user told
// once) or heard again.
func (e *editorApprover) setDeaf(deaf bool) {
	e.mu.Lock()
	if e.deaf == deaf {
		e.mu.Unlock()
		return
	}
	e.deaf = deaf
	tell := false
	if deaf {
		close(e.deafened)
		tell = !e.warned
		e.warned = true
	} else {
		e.deafened = make(chan struct{})
	}
	e.mu.Unlock()
	if tell {
		e.tellCannotAsk("it answered no request of eukhe's in " + e.wait.String())
	}
}

// deafness is closed once the editor is found deaf (nil before listen
// started: never closed).
func (e *editorApprover) deafness() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.deafened
}
