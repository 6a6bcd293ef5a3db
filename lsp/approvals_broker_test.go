package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/agent/brokertest"
	"github.com/eukhe/eukhe/protocol"
)

// The one broker suite (agent/brokertest) with the editor as the client:
// a real server's editorApprover asking a fake editor with eukhe/approve,
// told settled with eukhe/approvalSettled; the editor leaving is the
// server's editorGone.
func TestBrokerWithTheEditor(t *testing.T) {
	brokertest.Run(t, brokertest.Kind{Name: "editor", New: newEditorClient})
}

func newEditorClient(t *testing.T) (agent.Client, brokertest.User) {
	var (
		mu      sync.Mutex
		waiting = map[string]context.CancelFunc{}
		e       *fakeEditor
	)
	desk := brokertest.NewDesk(func() { e.srv.att.broker.editorGone() })
	handle := func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		switch req.Method() {
		case protocol.MethodApprove:
			var p protocol.ApproveParams
			json.Unmarshal(req.Params(), &p)
			jsonrpc2.Async(ctx) // a dialog does not hold the editor's read loop
			qctx, cancel := context.WithCancel(context.Background())
			mu.Lock()
			waiting[p.ID] = cancel
			mu.Unlock()
			desk.Show(p.Text)
			c, ok := desk.Choice(qctx)
			if !ok {
				return nil, errors.New("the dialog was dropped"), true
			}
			wire := map[brokertest.Choice]string{brokertest.Allow: protocol.AnswerApprove, brokertest.Deny: protocol.AnswerDeny,
				brokertest.AllowForSession: protocol.AnswerApproveSession}[c]
			b, _ := json.Marshal(protocol.ApproveResult{Answer: wire})
			return jsonrpc2.RawMessage(b), nil, true
		case protocol.MethodApprovalSettled:
			var p protocol.ApprovalSettledParams
			json.Unmarshal(req.Params(), &p)
			mu.Lock()
			if cancel := waiting[p.ID]; cancel != nil {
				cancel()
			}
			mu.Unlock()
			desk.Drop()
			return nil, nil, true
		}
		return nil, nil, false
	}
	e = newEditor(t, editorOpts{env: settingsEnv(t, ""), handle: handle,
		methods: []string{protocol.MethodApprove, protocol.MethodApprovalSettled}})
	t.Cleanup(func() { // let every dialog go before the editor quits
		mu.Lock()
		defer mu.Unlock()
		for _, cancel := range waiting {
			cancel()
		}
	})
	e.sync()
	return e.srv.att.broker.editor, desk
}
