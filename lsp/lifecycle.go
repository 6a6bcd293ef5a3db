package lsp

import (
	"context"
	"encoding/json"
	"slices"

	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/protocol"
)

// clientCaps is what the editor said it can do, at initialize.
type clientCaps struct {
	name             string // clientInfo.name
	applyEdit        bool   // workspace/applyEdit
	documentChanges  bool   // versioned edits (documentChanges) advertised
	rename           bool   // the rename resource operation (with documentChanges)
	failureHandling  lsproto.FailureHandlingKind
	showMessage      bool // window/showMessageRequest with actions (phase 2: approvals)
	workDoneProgress bool // window/workDoneProgress/create (phase 2: long greps)
	enc              encoding
	eukhe            protocol.ClientCapabilities // experimental.eukhe
}

// implements tells whether the client said it implements an eukhe/* method.
func (c clientCaps) implements(method string) bool {
	return slices.Contains(c.eukhe.Methods, method)
}

// versioned tells whether the client takes versioned edits
// (documentChanges): it said so, or it is Neovim, which takes them without
// saying so (DESIGN.md §4) and checks no version in `changes`.
func (c clientCaps) versioned() bool {
	return c.documentChanges || c.name == "Neovim" || c.eukhe.Kind == "nvim"
}

// checksEveryVersion tells whether the client checks the version of every
// document of a workspace edit before it applies any (VS Code:
// textOnlyTransactional). Neovim checks only the first.
func (c clientCaps) checksEveryVersion() bool {
	return c.versioned() && (c.failureHandling == lsproto.FailureHandlingKindTransactional ||
		c.failureHandling == lsproto.FailureHandlingKindTextOnlyTransactional)
}

func readCaps(p *lsproto.InitializeParams) clientCaps {
	c := clientCaps{name: p.ClientInfo.Name}
	cc := p.Capabilities
	if w := cc.Workspace; w != nil {
		c.applyEdit = w.ApplyEdit != nil && *w.ApplyEdit
		if we := w.WorkspaceEdit; we != nil {
			c.documentChanges = we.DocumentChanges != nil && *we.DocumentChanges
			c.rename = slices.Contains(we.ResourceOperations, lsproto.ResourceOperationKindRename)
			c.failureHandling = we.FailureHandling
		}
	}
	if w := cc.Window; w != nil {
		c.showMessage = w.ShowMessage != nil
		c.workDoneProgress = w.WorkDoneProgress != nil && *w.WorkDoneProgress
	}
	if g := cc.General; g != nil {
		c.enc = negotiate(g.PositionEncodings)
	}
	if len(cc.Experimental) > 0 {
		var ex map[string]json.RawMessage
		if json.Unmarshal(cc.Experimental, &ex) == nil && ex[protocol.Experimental] != nil {
			_ = json.Unmarshal(ex[protocol.Experimental], &c.eukhe)
		}
	}
	if !c.versioned() {
		c.rename = false // resource operations travel only in documentChanges
	}
	return c
}

// serverMethods are the eukhe/* methods this server answers.
var serverMethods = []string{protocol.MethodTool, protocol.MethodReviewDecision, protocol.MethodJoinTool, protocol.MethodQuitTool, protocol.MethodSettingsStatus}

func (r *rpc) Initialize(ctx context.Context, p *lsproto.InitializeParams) (*lsproto.InitializeResult, error) {
	s := r.s
	caps := readCaps(p)
	// Editors that predate workspaceFolders (and some that do not send
	// them) give only rootUri.
	//lint:ignore SA1019 read for those editors, see above
	rootURI := p.RootURI
	s.mu.Lock()
	s.caps = caps
	if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		if path, ok := pathOf(folders[0].URI); ok {
			s.root = path
		}
		for _, f := range folders {
			if path, ok := pathOf(f.URI); ok {
				s.folders = append(s.folders, path)
			}
		}
	} else if rootURI != nil {
		if path, ok := pathOf(*rootURI); ok {
			s.root = path
		}
	}
	s.ready = true
	root := s.root
	s.mu.Unlock()
	s.keepJournal(root)
	s.ov.setEncoding(caps.enc)
	s.ov.setInOrder(saysInOrder(caps.name, caps.eukhe.Kind))
	sync := lsproto.TextDocumentSyncKindIncremental
	yes := true
	ex, _ := json.Marshal(map[string]protocol.ServerCapabilities{
		protocol.Experimental: {Version: 1, Methods: serverMethods},
	})
	return &lsproto.InitializeResult{
		Capabilities: lsproto.ServerCapabilities{
			PositionEncoding: caps.enc.kind(),
			TextDocumentSync: &lsproto.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &sync,
				Save:      lsproto.Boolean(true),
			},
			Experimental: lsproto.LSPAny(ex),
		},
		ServerInfo: lsproto.ServerInfo{Name: "eukhe", Version: lsproto.NewOptional(agent.Version)},
	}, nil
}

// Initialized starts what needs the editor: the settings watch (its
// problems shown in the editor) and the discovery socket.
func (r *rpc) Initialized(context.Context, *lsproto.InitializedParams) error {
	r.s.att.start()
	r.s.att.broker.listenToEditor()
	return nil
}

// Shutdown ends the session's work; the exit that follows ends Serve.
// Pending waits on the editor end with the connection.
func (r *rpc) Shutdown(context.Context) error {
	r.s.mu.Lock()
	r.s.shutdown = true
	r.s.mu.Unlock()
	r.s.att.stop()
	return nil
}

func (r *rpc) Exit(context.Context) error {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	select {
	case <-r.s.exit:
	default:
		close(r.s.exit)
	}
	return nil
}
