package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
)

// Progress of long calls. A call's progress sink rides in its context
// (docs.WithProgress): the MCP binding sets one for a tools/call whose
// _meta carries a progressToken (notifications/progress), the editor's
// server one for its eukhe/tool requests and, through SetProgressWatch,
// one for every call of an agent attached to it ($/progress). Without a
// sink nothing is computed. grep and glob report the files their walk got
// to (docs); bash reports the step the gate asks about or runs and the
// lines of output so far, every interval, never faster; a call shorter
// than one interval reports nothing. A bash call that becomes a job stops
// reporting when the call returns.

// ProgressEveryEnv, in the environment of eukhe mcp or eukhe lsp, sets how
// often long calls report progress (a Go duration, "50ms"), for walks and
// bash alike; tests set it short.
const ProgressEveryEnv = "EUKHE_PROGRESS_EVERY"

// DefaultBashProgressEvery is how often a bash call reports its progress
// when nothing sets the interval (walks report every
// docs.DefaultProgressEvery).
const DefaultBashProgressEvery = time.Second

// progressEvery is the interval the options or the environment set; 0 is
// the defaults. A value that is not a positive duration is ignored.
func progressEvery(opt time.Duration, env map[string]string) time.Duration {
	if opt > 0 {
		return opt
	}
	if d, err := time.ParseDuration(env[ProgressEveryEnv]); err == nil && d > 0 {
		return d
	}
	return 0
}

// SetProgressWatch sets who watches every call of the session beside its
// client (the editor an agent is attached to): f gives a fresh sink for
// each call, or nil for none. nil watches nothing.
func (s *Session) SetProgressWatch(f func() docs.ProgressFunc) {
	if f == nil {
		s.watch.Store(nil)
		return
	}
	s.watch.Store(&f)
}

// withProgress is ctx with the call's sink: the client's, joined with the
// watcher's.
func (s *Session) withProgress(ctx context.Context) context.Context {
	w := s.watch.Load()
	if w == nil {
		return ctx
	}
	return docs.WithProgress(ctx, docs.JoinProgress(docs.ProgressOf(ctx), (*w)()))
}

// clientProgress is the sink of a tools/call that carries a progress
// token: each report a notifications/progress on the call's token, sent
// only when its count passed the last one sent (MCP requires progress to
// increase). nil without a token.
func clientProgress(ctx context.Context, req *mcp.CallToolRequest) docs.ProgressFunc {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	last := -1.0 // a call's reports come one at a time: no lock
	return func(p docs.Progress) {
		v, ok := nextProgress(last, p)
		if !ok {
			return
		}
		last = v
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: v, Message: p.Message})
	}
}

// closable wraps a sink so that done ends it: a report after done is
// dropped, and done waits for one being sent. A call's reply then follows
// its last notification on the wire (a client forgets the token with the
// reply, and the TypeScript SDK fails on a notification for a token it
// forgot). A nil sink stays nil.
func closable(f docs.ProgressFunc) (docs.ProgressFunc, func()) {
	if f == nil {
		return nil, func() {}
	}
	var mu sync.Mutex
	closed := false
	return func(p docs.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				f(p)
			}
		}, func() {
			mu.Lock()
			closed = true
			mu.Unlock()
		}
}

// nextProgress decides whether a report goes to an MCP client after one
// whose progress was last (-1 before the first): only when its count is
// more (mcp_progress_increases), as the value to send.
func nextProgress(last float64, p docs.Progress) (float64, bool) {
	v := float64(p.Done)
	return v, v > last
}

// watchBash is the Watch of a bash call (what runs: "bash SCRIPT", "bash
// job j1") when the call has a sink: the step and the lines so far, every
// interval (DefaultBashProgressEvery when every is 0); nil without a sink.
// With starts, the call started the script, and its last report names the
// job it became; a call that waits for a job names none.
func watchBash(ctx context.Context, what string, every time.Duration, starts bool) func(now func() shell.Now) func() {
	return watchRun(ctx, every, func(p shell.Now, n int) docs.Progress {
		if !starts {
			p.Job = ""
		}
		return bashProgress(what, p, n)
	})
}

// watchCell is watchBash for an ipython cell (cellProgress).
func watchCell(ctx context.Context, what string, every time.Duration) func(now func() shell.Now) func() {
	return watchRun(ctx, every, func(p shell.Now, n int) docs.Progress { return cellProgress(what, p, n) })
}

// watchRun reports a run's progress to the call's sink, every interval
// (DefaultBashProgressEvery when 0); nil without a sink.
func watchRun(ctx context.Context, every time.Duration, report func(p shell.Now, n int) docs.Progress) func(now func() shell.Now) func() {
	f := docs.ProgressOf(ctx)
	if f == nil {
		return nil
	}
	if every <= 0 {
		every = DefaultBashProgressEvery
	}
	return func(now func() shell.Now) func() {
		return docs.WatchProgress(f, every, func(n int) docs.Progress { return report(now(), n) })
	}
}

// cellProgress is the n-th report of an ipython cell: its count is n; its
// message says how much output the cell wrote and the job it went on as.
func cellProgress(what string, now shell.Now, n int) docs.Progress {
	msg := "the cell runs — no output yet"
	if now.Lines > 0 {
		msg = fmt.Sprintf("the cell runs — %s of output so far", docs.Count(int(now.Lines), "line"))
	}
	if now.Job != "" {
		msg += fmt.Sprintf(" — goes on as job %s (ipython {\"job\": %q} waits for it)", now.Job, now.Job)
	}
	return docs.Progress{What: what, Message: msg, Done: n}
}

// bashProgress is the n-th report of a bash call (bash_progress_says):
// its count is n, so it grows with every report even while a step prints
// nothing; its message names the step asked about or running, its number
// among the script's steps, and the lines of output so far.
func bashProgress(what string, now shell.Now, n int) docs.Progress {
	var b strings.Builder
	switch {
	case now.Step == 0:
		b.WriteString("starting")
	case now.Last > now.Step:
		fmt.Fprintf(&b, "steps %d-%d of %d", now.Step, now.Last, now.Steps)
	default:
		fmt.Fprintf(&b, "step %d of %d", now.Step, now.Steps)
	}
	if now.Step > 0 {
		if now.Asking {
			b.WriteString(" waits for the user's answer")
		}
		b.WriteString(": " + oneLine(now.Text))
	}
	if now.Lines == 0 {
		b.WriteString(" — no output yet")
	} else {
		fmt.Fprintf(&b, " — %s of output so far", docs.Count(int(now.Lines), "line"))
	}
	if now.Job != "" {
		fmt.Fprintf(&b, " — goes on as job %s (bash {\"job\": %q} waits for it)", now.Job, now.Job)
	}
	return docs.Progress{What: what, Message: b.String(), Done: n}
}

// progressLine is how long a step's text may be in a report.
const progressLine = 100

// oneLine is text's first line, at most progressLine characters; "…"
// marks what it left out.
func oneLine(text string) string {
	line, rest, cut := strings.Cut(text, "\n")
	line = strings.TrimRight(line, " \t")
	if utf8.RuneCountInString(line) > progressLine {
		r := []rune(line)
		return string(r[:progressLine-1]) + "…"
	}
	if cut && strings.TrimSpace(rest) != "" {
		return line + " …"
	}
	return line
}
