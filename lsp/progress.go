package lsp

import (
	"context"
	"fmt"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/docs"
)

// Long greps shown as LSP work-done progress: docs tells how a walk goes
// (docs.WalkProgress); this file only translates. The first report of a
// grep creates a token (window/workDoneProgress/create) and begins; later
// ones report; the walk's End ends. A grep shorter than one interval
// (docs.DefaultProgressEvery) shows nothing.

var progressTokens atomic.Int64

// progressValue is the value of a $/progress notification: a
// WorkDoneProgressBegin, Report or End.
type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Cancellable *bool  `json:"cancellable,omitempty"`
	Message     string `json:"message,omitempty"`
}

type progressParams struct {
	Token string        `json:"token"`
	Value progressValue `json:"value"`
}

type progressCreate struct {
	Token string `json:"token"`
}

// withProgress sets t's progress hook when the editor supports work-done
// progress; t's calls are one at a time, and so are the hook's calls for
// one walk, so its state needs no lock.
func (s *Server) withProgress(t *docs.Tools) {
	if !s.capabilities().workDoneProgress {
		return
	}
	t.ProgressEvery = s.opts.ProgressEvery
	token, ok := "", false
	t.Progress = func(p docs.WalkProgress) {
		_, conn, life, up := s.editor()
		msg := docs.Count(p.Done, "file") + " searched"
		switch {
		case p.End:
			if ok {
				_ = notify(life, conn, "$/progress", progressParams{Token: token, Value: progressValue{Kind: "end", Message: msg}})
			}
			token, ok = "", false
		case token == "":
			token = fmt.Sprintf("eukhe-grep-%d", progressTokens.Add(1))
			if !up {
				return
			}
			ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
			defer cancel()
			var res jsonrpc2.RawMessage
			if call(ctx, conn, "window/workDoneProgress/create", progressCreate{Token: token}, &res) != nil {
				return // the editor refused: this grep shows nothing
			}
			no := false
			ok = notify(life, conn, "$/progress", progressParams{Token: token,
				Value: progressValue{Kind: "begin", Title: "eukhe: " + p.What, Cancellable: &no, Message: msg}}) == nil
		case ok:
			_ = notify(life, conn, "$/progress", progressParams{Token: token, Value: progressValue{Kind: "report", Message: msg}})
		}
	}
}
