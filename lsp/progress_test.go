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
)

// A long grep over eukhe/tool shows as work-done progress: a token the
// editor created, then begin, reports, and one end, all before the reply;
// a grep of one file walks nothing and shows nothing.
func TestGrepProgress(t *testing.T) {
	var mu sync.Mutex
	var created []string
	var got []progressParams
	e := newEditor(t, editorOpts{progressEvery: time.Millisecond,
		handle: func(_ context.Context, req *jsonrpc2.Request) (any, error, bool) {
			switch req.Method() {
			case "window/workDoneProgress/create":
				var p progressCreate
				_ = json.Unmarshal(req.Params(), &p)
				mu.Lock()
				created = append(created, p.Token)
				mu.Unlock()
				return nil, nil, true
			case "$/progress":
				var p progressParams
				_ = json.Unmarshal(req.Params(), &p)
				mu.Lock()
				got = append(got, p)
				mu.Unlock()
				return nil, nil, true
			}
			return nil, nil, false
		}})
	for i := range 1500 {
		e.put(fmt.Sprintf("d%02d/f%04d.txt", i%40, i), "alpha\nneedle here\nomega\n")
	}
	res := e.tool("grep", map[string]any{"pattern": "needle"})
	if res.IsError || !strings.Contains(res.Text, "needle here") {
		t.Fatalf("grep: %+v", res)
	}
	mu.Lock()
	if len(created) != 1 || len(got) < 3 {
		t.Fatalf("created %v, progress %+v", created, got)
	}
	for i, p := range got {
		want := "report"
		switch i {
		case 0:
			want = "begin"
		case len(got) - 1:
			want = "end"
		}
		if p.Token != created[0] || p.Value.Kind != want {
			t.Fatalf("progress %d: %+v, want %s on %s", i, p, want, created[0])
		}
	}
	if b := got[0].Value; !strings.HasPrefix(b.Title, "eukhe: grep needle in") || b.Cancellable == nil || *b.Cancellable {
		t.Fatalf("begin %+v", b)
	}
	if end := got[len(got)-1].Value.Message; end != "1500 files searched" {
		t.Fatalf("end message %q", end)
	}
	created, got = nil, nil
	mu.Unlock()

	e.tool("grep", map[string]any{"pattern": "needle", "path": "d00/f0000.txt"})
	mu.Lock()
	defer mu.Unlock()
	if len(created)+len(got) != 0 {
		t.Fatalf("a one-file grep showed progress: %v %+v", created, got)
	}
}
