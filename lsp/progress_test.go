package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// progressSeen records the editor's side of work-done progress: the
// tokens the server created and every $/progress, in order.
type progressSeen struct {
	mu      sync.Mutex
	created []string
	got     []progressParams
}

func (ps *progressSeen) handle(_ context.Context, req *jsonrpc2.Request) (any, error, bool) {
	switch req.Method() {
	case "window/workDoneProgress/create":
		var p progressCreate
		_ = json.Unmarshal(req.Params(), &p)
		ps.mu.Lock()
		ps.created = append(ps.created, string(p.Token))
		ps.mu.Unlock()
		return nil, nil, true
	case "$/progress":
		var p progressParams
		_ = json.Unmarshal(req.Params(), &p)
		ps.mu.Lock()
		ps.got = append(ps.got, p)
		ps.mu.Unlock()
		return nil, nil, true
	}
	return nil, nil, false
}

// takeEnded is take once an end was seen: the editor's connection may
// handle a notification after the reply that followed it on the wire.
func (ps *progressSeen) takeEnded(t *testing.T) (created []string, got []progressParams) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for {
		ps.mu.Lock()
		ended := len(ps.got) > 0 && ps.got[len(ps.got)-1].Value.Kind == "end"
		ps.mu.Unlock()
		if ended || time.Now().After(deadline) {
			return ps.take()
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (ps *progressSeen) take() (created []string, got []progressParams) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	created, got = ps.created, ps.got
	ps.created, ps.got = nil, nil
	return created, got
}

// checkBeginReportEnd: at least three notifications on token, begin
// first (titled title, not cancellable), reports, one end last.
func checkBeginReportEnd(t *testing.T, got []progressParams, token, title string) {
	t.Helper()
	if len(got) < 3 {
		t.Fatalf("progress %+v", got)
	}
	for i, p := range got {
		want := "report"
		switch i {
		case 0:
			want = "begin"
		case len(got) - 1:
			want = "end"
		}
		if string(p.Token) != token || p.Value.Kind != want {
			t.Fatalf("progress %d: %s %+v, want %s on %s", i, p.Token, p.Value, want, token)
		}
	}
	if b := got[0].Value; !strings.HasPrefix(b.Title, title) || b.Cancellable == nil || *b.Cancellable {
		t.Fatalf("begin %+v", b)
	}
}

// A long grep over eukhe/tool shows as work-done progress: a token the
// editor created, then begin, reports, and one end, all before the reply;
// a grep of one file walks nothing and shows nothing.
func TestGrepProgress(t *testing.T) {
	var ps progressSeen
	e := newEditor(t, editorOpts{progressEvery: time.Microsecond, handle: ps.handle})
	for i := range 1500 {
		e.put(fmt.Sprintf("d%02d/f%04d.txt", i%40, i), "alpha\nneedle here\nomega\n")
	}
	res := e.tool("grep", map[string]any{"pattern": "needle"})
	if res.IsError || !strings.Contains(res.Text, "needle here") {
		t.Fatalf("grep: %+v", res)
	}
	created, got := ps.takeEnded(t)
	if len(created) != 1 {
		t.Fatalf("created %v, progress %+v", created, got)
	}
	checkBeginReportEnd(t, got, created[0], "eukhe: grep needle in")
	if end := got[len(got)-1].Value.Message; end != "1500 files searched" {
		t.Fatalf("end message %q", end)
	}

	e.tool("grep", map[string]any{"pattern": "needle", "path": "d00/f0000.txt"})
	if created, got := ps.take(); len(created)+len(got) != 0 {
		t.Fatalf("a one-file grep showed progress: %v %+v", created, got)
	}
}

// An eukhe/tool request that carries a workDoneToken gets its progress on
// that token (an integer here), with no token created: a glob counts the
// files it considered.
func TestToolProgressOnTheEditorsToken(t *testing.T) {
	var ps progressSeen
	e := newEditor(t, editorOpts{progressEvery: time.Microsecond, handle: ps.handle})
	for i := range 5000 { // a walk long enough for a report after the first tick, under load too (1500 files: begin at 1462, no report, in a CI rehearsal)
		e.put(fmt.Sprintf("d%02d/f%04d.txt", i%40, i), "x\n")
	}
	a, _ := json.Marshal(map[string]any{"pattern": "f1*.txt"})
	var raw jsonrpc2.RawMessage
	if err := call(e.ctx(), e.conn, protocol.MethodTool, protocol.ToolParams{Name: "glob", Arguments: a, WorkDoneToken: json.RawMessage("7")}, &raw); err != nil {
		t.Fatal(err)
	}
	var res protocol.ToolResult
	if err := json.Unmarshal(raw, &res); err != nil || res.IsError {
		t.Fatalf("glob: %s %v", raw, err)
	}
	created, got := ps.takeEnded(t)
	if len(created) != 0 {
		t.Fatalf("a token was created beside the editor's: %v", created)
	}
	checkBeginReportEnd(t, got, "7", "eukhe: glob f1*.txt in")
	if end := got[len(got)-1].Value.Message; end != "5000 files considered" {
		t.Fatalf("end message %q", end)
	}
}

// A bash step of an agent attached to the editor shows in the editor as
// work-done progress: begin, reports naming the step and counting its
// lines of output, and an end, before the agent gets its reply.
func TestAnAgentsBashStepShowsProgress(t *testing.T) {
	var ps progressSeen
	e := newEditor(t, editorOpts{progressEvery: 20 * time.Millisecond, handle: ps.handle})
	e.sync() // initialized handled: the agent attaches on its settings
	ag := attachAgent(e, "")
	text, failed := ag.call("bash", map[string]any{"script": "for i in 1 2 3; do echo $i; sleep 0.2; done"})
	if failed || !strings.Contains(text, "1\n2\n3\n") {
		t.Fatalf("bash: %v %s", failed, text)
	}
	created, got := ps.takeEnded(t)
	if len(created) != 1 {
		t.Fatalf("created %v, progress %+v", created, got)
	}
	checkBeginReportEnd(t, got, created[0], "eukhe: bash for i in 1 2 3; do echo $i; sleep 0.2; done")
	end := got[len(got)-1].Value.Message
	if end != "step 1 of 1: for i in 1 2 3; do … — 3 lines of output so far" {
		t.Fatalf("end message %q", end)
	}
	for _, p := range got[:len(got)-1] {
		if !strings.HasPrefix(p.Value.Message, "step 1 of 1: for i in 1 2 3; do … — ") {
			t.Fatalf("report %+v", p.Value)
		}
	}
	// A call shorter than the interval shows nothing.
	if _, failed := ag.call("read", map[string]any{"path": "."}); failed {
		t.Fatal("read failed")
	}
	if created, got := ps.take(); len(created)+len(got) != 0 {
		t.Fatalf("a short call showed progress: %v %+v", created, got)
	}
}
