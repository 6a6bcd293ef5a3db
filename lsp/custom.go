package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// The eukhe/* methods a client calls (protocol/README.md). Each may call
// back into the editor, so each releases the read loop first.

var errEditorGone = errors.New("the editor is not connected")

// errNotInitialized is LSP's ServerNotInitialized.
var errNotInitialized = jsonrpc2.NewError(-32002, "eukhe: initialize first")

func (r *rpc) Request(ctx context.Context, method string, params any) (any, error) {
	raw, _ := params.(lsproto.LSPAny)
	switch method {
	case protocol.MethodTool:
		var p protocol.ToolParams
		if err := r.decode(raw, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(ctx)
		return r.s.runTool(ctx, p), nil
	case protocol.MethodReviewDecision:
		var p protocol.ReviewDecisionParams
		if err := r.decode(raw, &p); err != nil {
			return nil, err
		}
		jsonrpc2.Async(ctx)
		return r.s.decide(p), nil
	case protocol.MethodJoinTool:
		var p protocol.JoinToolParams
		if err := r.decode(raw, &p); err != nil {
			return nil, err
		}
		return nil, r.s.joinTool(p)
	case protocol.MethodSettingsStatus:
		if err := r.decode([]byte("{}"), &struct{}{}); err != nil {
			return nil, err
		}
		return r.s.settingsStatus(), nil
	case protocol.MethodQuitTool:
		var p protocol.QuitToolParams
		if err := r.decode(raw, &p); err != nil {
			return nil, err
		}
		r.s.quitTool(p)
		return nil, nil
	}
	return nil, fmt.Errorf("%q: %w", method, jsonrpc2.ErrMethodNotFound)
}

// decode reads an eukhe/* request's params, once the session is
// initialized.
func (r *rpc) decode(raw []byte, v any) error {
	r.s.mu.Lock()
	ready := r.s.ready
	r.s.mu.Unlock()
	if !ready {
		return errNotInitialized
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("eukhe: bad params: %v", err))
	}
	return nil
}
