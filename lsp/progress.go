package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/docs"
)

// Long calls shown as LSP work-done progress: docs and agent tell how a
// call goes (docs.Progress: a grep's or glob's files, a bash step and its
// lines of output); this file only translates. Each call gets a sink of
// its own: its first report begins on the token the editor sent with the
// request (workDoneToken of eukhe/tool), else on one it creates
// (window/workDoneProgress/create) when the editor supports work-done
// progress; later ones report; the call's End ends. A call shorter than
// one interval shows nothing.

var progressTokens atomic.Int64

// progressValue is the value of a $/progress notification: a
// WorkDoneProgressBegin, Report or End.
type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Cancellable *bool  `json:"cancellable,omitempty"`
	Message     string `json:"message,omitempty"`
}

// progressParams are $/progress's params; a token is a string or an
// integer.
type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value progressValue   `json:"value"`
}

type progressCreate struct {
	Token json.RawMessage `json:"token"`
}

// progressSink is one call's sink: its reports as $/progress on token
// when the editor sent one, else on a token of the server's. nil when the
// editor sent none and does not support work-done progress: nothing is
// computed then. A call's reports come one at a time, so its state needs
// no lock.
func (s *Server) progressSink(token json.RawMessage) docs.ProgressFunc {
	given := len(token) > 0 && string(token) != "null"
	if !given && !s.capabilities().workDoneProgress {
		return nil
	}
	var tok json.RawMessage
	begun, dropped := false, false
	return func(p docs.Progress) {
		_, conn, life, up := s.editor()
		switch {
		case !up || dropped:
		case p.End:
			if begun {
				_ = notify(life, conn, "$/progress", progressParams{Token: tok, Value: progressValue{Kind: "end", Message: p.Message}})
			}
		case begun:
			_ = notify(life, conn, "$/progress", progressParams{Token: tok, Value: progressValue{Kind: "report", Message: p.Message}})
		default:
			tok = token
			if !given {
				tok, _ = json.Marshal(fmt.Sprintf("eukhe-%d", progressTokens.Add(1)))
				ctx, cancel := context.WithTimeout(life, s.opts.CallTimeout)
				defer cancel()
				var res jsonrpc2.RawMessage
				if call(ctx, conn, "window/workDoneProgress/create", progressCreate{Token: tok}, &res) != nil {
					dropped = true // the editor refused: this call shows nothing
					return
				}
			}
			no := false
			begun = notify(life, conn, "$/progress", progressParams{Token: tok,
				Value: progressValue{Kind: "begin", Title: "eukhe: " + p.What, Cancellable: &no, Message: p.Message}}) == nil
			dropped = !begun
		}
	}
}
