package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// memory:// and agent:// (DESIGN §11, S7.5, S7.6): reads of a session's
// transcript (package transcript keeps it and reads its files; here are
// the URLs, and what ties a call in flight to its row).
//
//   - memory:// lists this session's kept calls (id, tool, size, summary);
//     memory://cN gives call N's whole result as rows (N:text, not edit
//     anchors), bounded and cut like any read, so memory://cN:200-400
//     pages; memory://cN/K gives its line K.
//   - agent://SESSION reads the transcript of a subagent session whose
//     parent chain holds this session (its meta.json names its parent, and
//     so on up), as memory:// reads this one's: agent://SESSION/cN,
//     agent://SESSION/cN:A-B, agent://SESSION/cN/K.
//
// The path after the scheme is walked by urls.WalkPath: above the root is
// escapes, never clamped (memory://../x, memory://c1/../../x). A session
// without a transcript has no transcriptURLs: package urls rejects both
// schemes there (the rejection scheme).

// transcriptURLs reads memory:// and agent:// over the session's
// transcript: it is the session's urls.Reader.Memory.
type transcriptURLs struct{ t *transcript.Transcript }

var _ urls.TranscriptSource = transcriptURLs{}

// ReadMemory reads memory://rest.
func (m transcriptURLs) ReadMemory(raw, rest string, bound int) (string, error) {
	names, ok := urls.WalkPath(rest)
	if !ok {
		return "", urls.Errorf(urls.KindEscapes, raw, "the path climbs above memory://; name a call as memory://c7")
	}
	return readTranscript(raw, "memory://", m.t.Dir, "this session", names, bound)
}

// ReadAgent reads agent://rest.
func (m transcriptURLs) ReadAgent(raw, rest string, bound int) (string, error) {
	names, ok := urls.WalkPath(rest)
	if !ok {
		return "", urls.Errorf(urls.KindEscapes, raw, "the path climbs above agent://; name a subagent session as agent://SESSION")
	}
	if len(names) == 0 {
		return "", urls.Errorf(urls.KindArguments, raw, "name a subagent session: agent://SESSION lists its calls, agent://SESSION/c3 gives one")
	}
	id := names[0]
	sessions := filepath.Dir(m.t.Dir)
	switch {
	case id == m.t.Session:
		return "", urls.Errorf(urls.KindNotAllowed, raw, "that is this session; read memory:// for its own calls")
	case !transcript.ValidSessionID(id):
		return "", urls.Errorf(urls.KindNotFound, raw, "%q is not a session id (letters, digits, '-' and '_')", Shown(id))
	}
	if err := parentChainHolds(sessions, id, m.t.Session); err != nil {
		return "", urls.Errorf(err.kind, raw, "%s", err.msg)
	}
	return readTranscript(raw, "agent://"+id+"/", filepath.Join(sessions, id), "subagent session "+id, names[1:], bound)
}

type chainError struct{ kind, msg string }

// parentChainHolds tells whether reader is on the parent chain of session
// id (its parent, its parent's parent, …), from the transcripts' meta
// (transcript.OnParentChain).
func parentChainHolds(sessions, id, reader string) *chainError {
	found, on := transcript.OnParentChain(sessions, id, reader)
	switch {
	case !found:
		return &chainError{urls.KindNotFound, fmt.Sprintf("no session %s has a transcript here; agent:// reads the subagents this session started (eukhe mcp --parent %s)", id, reader)}
	case on:
		return nil
	}
	return &chainError{urls.KindNotAllowed, fmt.Sprintf("session %s is not a subagent of this session (its parent chain does not hold %s); only its parent chain may read it", id, reader)}
}

// readTranscript reads names (none: the list; cN with an optional
// selector; cN and a line number) from the transcript in dir.
func readTranscript(raw, base, dir, whose string, names []string, bound int) (string, error) {
	transcript.Flush(dir)
	l, err := transcript.ReadLog(dir)
	if err != nil {
		return "", urls.Errorf(urls.KindIO, raw, "the transcript of %s cannot be read: %v", whose, err)
	}
	defer l.Close()
	if len(names) == 0 {
		return listCalls(base, whose, l), nil
	}
	name, ranges, _ := docs.SplitSelector(names[0])
	if len(names) > 2 || (len(names) == 2 && ranges != nil) {
		return "", urls.Errorf(urls.KindNotFound, raw, "%s%s names one line of a call; nothing is below it", base, strings.Join(names[:2], "/"))
	}
	n, ok := transcript.CallNumber(name)
	if !ok {
		return "", urls.Errorf(urls.KindNotFound, raw, "%q is not a call id; calls are c1, c2, …: read %s for the list", Shown(name), base)
	}
	var row *transcript.CallRow
	for i := range l.Rows {
		if l.Rows[i].ID == name {
			row = &l.Rows[i]
		}
	}
	_, last := l.Span()
	dropped := fmt.Sprintf("call %s was dropped from the transcript of %s: it keeps the last %d calls or %d MiB, the oldest going first; read %s for the calls still kept", name, whose, transcript.DefaultMaxCalls, transcript.DefaultMaxBytes>>20, base)
	switch {
	case n <= l.Drop:
		return "", urls.Errorf(urls.KindNotFound, raw, "%s", dropped)
	case row == nil && n > last:
		return "", urls.Errorf(urls.KindNotFound, raw, "%s has no call %s (yet); read %s for the calls it kept", whose, name, base)
	case row == nil:
		return "", urls.Errorf(urls.KindNotFound, raw, "call %s of %s has not ended yet, or was not kept; read %s for the calls it kept", name, whose, base)
	}
	data, ferr := l.Body(name)
	if ferr != nil {
		return "", urls.Errorf(urls.KindIO, raw, "call %s of %s cannot be read: %v", name, whose, ferr)
	}
	p := docs.Scan(data)
	path := base + name
	if base == "memory://" {
		path = "memory://" + name
	}
	note := fmt.Sprintf("[%s: %s call, %s bytes, %d lines, as it was given whole; rows are not edit anchors]", path, row.Tool, shell.Thousands(int64(len(data))), len(p.Lines))
	req := docs.ViewRequest{Path: path, P: p, Bound: bound, Notices: []string{note}}
	if len(names) == 2 {
		k, err := strconv.Atoi(names[1])
		if err != nil || k < 1 {
			return "", urls.Errorf(urls.KindNotFound, raw, "%s/%s: a call's line is a number from 1", path, Shown(names[1]))
		}
		if k > len(p.Lines) {
			return "", urls.Errorf(urls.KindNotFound, raw, "%s has %d lines; there is no line %d", path, len(p.Lines), k)
		}
		req.Ranges = []docs.Range{{From: k, To: k}}
	} else if ranges != nil {
		merged, past := docs.MergeRanges(ranges, len(p.Lines))
		if len(merged) == 0 {
			return "", urls.Errorf(urls.KindNotFound, raw, "%s has %d lines; %s is past its end", path, len(p.Lines), Shown(names[0]))
		}
		_ = past
		req.Ranges = merged
	}
	return docs.Render(req).Text, nil
}

// listCalls is the list of a transcript's kept calls.
func listCalls(base, whose string, l *transcript.Log) string {
	var b strings.Builder
	kept := l.Kept()
	label := base
	if strings.HasPrefix(base, "agent://") {
		label = strings.TrimSuffix(base, "/")
	}
	fmt.Fprintf(&b, "[%s: the calls of %s: %d kept", label, whose, len(kept))
	if l.Drop > 0 {
		fmt.Fprintf(&b, ", c1-c%d dropped (the last %d calls or %d MiB are kept)", l.Drop, transcript.DefaultMaxCalls, transcript.DefaultMaxBytes>>20)
	}
	b.WriteString("]\n")
	for _, r := range kept {
		state := ""
		switch {
		case r.Withheld:
			state = " (not kept: a secret)"
		case r.Failed:
			state = " (error)"
		}
		fmt.Fprintf(&b, "%s %s %s bytes%s: %s\n", r.ID, r.Tool, shell.Thousands(int64(r.Size)), state, r.Summary)
	}
	if len(kept) > 0 {
		fmt.Fprintf(&b, "[read %sc3 for a call's whole result, %sc3:200-400 for its lines 200-400, %sc3/7 for its line 7]\n", base, base, base)
	}
	return b.String()
}

// callMark is one call's state the gate marks: whether the user allowed
// a secret in it (its result is then not kept).
type callMark struct {
	mu     sync.Mutex
	secret bool
	done   bool
	asked  []string     // the questions asked in the call, with their answers
	later  *atomic.Bool // the session's secretLater
}

// markAsked records a question the call asked and how it ended.
func markAsked(ctx context.Context, q gate.Question, a gate.Answer, ok bool) {
	m, _ := ctx.Value(callMarkKey{}).(*callMark)
	if m == nil {
		return
	}
	what := q.What
	if q.Step > 0 {
		what = fmt.Sprintf("step %d %s", q.Step, q.What)
	}
	answer := a.String()
	if !ok {
		answer = "no one answered"
	}
	line := fmt.Sprintf("%s (%s): %s", Shown(what), q.Effects, answer)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.asked) < 50 {
		m.asked = append(m.asked, line)
	}
}

type callMarkKey struct{}

// markSecret notes that the user allowed a step or access with a secret
// in the call of ctx; after the call returned (a job), later job results
// are not kept either.
func markSecret(ctx context.Context) {
	m, _ := ctx.Value(callMarkKey{}).(*callMark)
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.secret = true
	if m.done && m.later != nil {
		m.later.Store(true)
	}
}

// beginCall gives the call its id in the transcript and marks its
// context so that the gate can tell when it allowed a secret.
func (s *Session) beginCall(ctx context.Context) (string, *callMark, context.Context) {
	if s.memory == nil {
		return "", nil, ctx
	}
	m := &callMark{later: &s.secretLater}
	return s.memory.Begin(), m, context.WithValue(ctx, callMarkKey{}, m)
}

// endCall keeps the call's whole result in the transcript and finishes
// the reply's text: a cut bash output names memory://cN at its cut, a cut
// read gets a last notice naming it.
func (s *Session) endCall(id string, m *callMark, tool string, args json.RawMessage, r *Result) {
	if id == "" {
		return
	}
	m.mu.Lock()
	secret := m.secret
	asked := m.asked
	m.done = true
	m.mu.Unlock()
	later := s.secretLater.Load()
	if s.recall != "" {
		r.mapText(func(t string) string { return strings.ReplaceAll(t, s.recall, id) })
	}
	whole := r.Whole
	if len(whole) > docs.KeptBound {
		whole = "" // the transcript keeps the reply only: no copy that size stays
		r.appendText(fmt.Sprintf("[the whole result, %s, is over the %s a transcript keeps: it was not kept]\n", docs.Count(len(r.Whole), "byte"), docs.Count(docs.KeptBound, "byte")))
	}
	if whole == "" {
		whole = r.Text()
	} else if tool == "read" {
		r.appendText(fmt.Sprintf("[the cut rows are kept: read memory://%s for the whole result, exactly as read]\n", id))
	}
	row := transcript.CallRow{ID: id, Tool: tool, Summary: transcript.Summary(tool, args), Failed: r.Failed(), Asked: asked}
	if secret || (later && tool == "bash" && jobCall(args)) {
		row.Withheld = true
		whole = fmt.Sprintf("[%s: the user allowed a secret in this call; eukhe keeps no copy of its result]\n", id)
	}
	if err := s.memory.Keep(row, whole); err != nil {
		s.logf("the transcript of session %s: %v", s.ID, err)
	}
}

// jobCall tells whether bash's arguments wait on or kill a job.
func jobCall(args json.RawMessage) bool {
	var a struct{ Job, Kill string }
	_ = json.Unmarshal(args, &a)
	return a.Job != "" || a.Kill != ""
}

// openTranscript opens the session's transcript beside its log, and has
// the shell keep whole outputs for it.
func (s *Session) openTranscript(logPath string) {
	if logPath == "" || !transcript.ValidSessionID(s.ID) {
		return
	}
	t, err := transcript.Open(transcript.Dir(logPath, s.ID), s.ID, s.Parent)
	if err != nil {
		s.logf("no transcript for session %s (memory:// will say so): %v", s.ID, err)
		return
	}
	t.OnError = func(err error) { s.logf("%v", err) }
	if err := t.SetRoot(s.host.Root()); err != nil {
		s.logf("the transcript of session %s: %v", s.ID, err)
	}
	s.memory = t
	s.recall = "\x00" + NewID() + "\x00"
	if s.shell != nil {
		s.shell.KeepWhole, s.shell.RecallToken = true, s.recall
	}
	if u, ok := s.URLs.(*urls.Reader); ok {
		u.Memory = transcriptURLs{t}
	}
}

// closeTranscript closes the transcript's index when the session ends.
func (s *Session) closeTranscript() {
	if s.memory != nil {
		s.memory.Close()
	}
}
