package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/protocol"
)

// The in-process editor: an LSP client written here, over a net.Pipe, that
// holds buffers, applies workspace edits the way VS Code or Neovim does
// (as a knob says), and tells the server every change with incremental
// didChange, converting positions with its own code (not the server's).

type editorOpts struct {
	enc           string        // "utf-16" (offered nothing, as Neovim 0.7) or "utf-8" (offered first)
	transactional bool          // check every version before applying any (VS Code)
	checksTexts   bool          // check the texts the server names before applying (the VS Code extension)
	saves         bool          // implements eukhe/saveDocuments
	reviews       bool          // implements eukhe/review
	noRename      bool          // advertise no rename resource operation
	plain         bool          // no documentChanges announced: refuses them, applies changes (a strict client)
	debounce      bool          // hold every change until flush, as Neovim's debounce does (versions counted at once)
	zero          bool          // open documents at version 0, as Neovim does
	gapless       bool          // with debounce: number each didChange one more than the last (not Neovim)
	name          string        // its clientInfo name (default "fake", or "Neovim" with debounce and not gapless)
	wait          time.Duration // the server's LandingWait (default 2s)
	refusedWait   time.Duration // the server's RefusedWait (default refusedWait)
	methods       []string      // more eukhe/* methods the editor says it implements
	env           map[string]string
	progressEvery time.Duration // the server's ProgressEvery
	callTimeout   time.Duration // the server's CallTimeout (default 30s)
	// handle answers a message before the fake client does, when it
	// reports ok (approvals, messages, host tools: agents_test.go).
	handle func(ctx context.Context, req *jsonrpc2.Request) (res any, err error, ok bool)
}

type fakeEditor struct {
	texts  map[string]string // the texts the last applyEdit named (checksTexts)
	t      testing.TB
	opts   editorOpts
	root   string
	srv    *Server
	conn   jsonrpc2.Conn
	server lsproto.Server
	served chan error

	mu   sync.Mutex
	bufs map[string]*fakeBuf // by path

	// What the editor does with the next edits; set by a test before it
	// edits, read under mu.
	refuse      bool                     // answer applied: false, apply nothing
	lie         bool                     // answer applied: true, apply nothing
	late        bool                     // send the didChange after the reply
	tellLate    map[string]time.Duration // by path: send an applied edit's didChange this much later (vim-lsp: 2.5 s)
	applyAfter  time.Duration            // answer at once, apply this much later (held: debounce mode)
	beforeApply func(call int)           // runs before the editor applies an edit: a user typing
	hold        chan struct{}            // when set, an applyEdit waits for it to close
	saveLies    bool                     // answer eukhe/saveDocuments as saved, save nothing
	applyCalls  int                      // applyEdit requests received
	edits       []lsproto.WorkspaceEdit
	reviewed    []protocol.ReviewParams
	saved       []string
	closedAfter []string // documents closed by a move
}

type fakeBuf struct {
	uri     uri.URI
	text    string
	version int32 // the version of the last didChange sent
	tick    int32 // the version the buffer is at (ahead of version while changes are held)
	gapless bool  // its didChange versions go up by one
	pending []lsproto.TextDocumentContentChangeEvent
}

func newEditor(t testing.TB, o editorOpts) *fakeEditor {
	t.Helper()
	if o.wait == 0 {
		o.wait = 2 * time.Second
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &fakeEditor{t: t, opts: o, root: root, bufs: map[string]*fakeBuf{}, served: make(chan error, 1)}
	if o.env == nil {
		home := t.TempDir()
		o.env = map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, ".state")}
	}
	if o.callTimeout == 0 {
		o.callTimeout = 30 * time.Second
	}
	e.srv = New(Options{Root: root, LandingWait: o.wait, RefusedWait: o.refusedWait, CallTimeout: o.callTimeout, Env: o.env, ProgressEvery: o.progressEvery})
	a, b := net.Pipe()
	go func() { e.served <- e.srv.Serve(context.Background(), a) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(codec{}))
	h := lsproto.Handlers(lsproto.ClientHandler(&fakeClient{e: e}, e.fallback))
	if o.checksTexts {
		inner := h
		h = func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
			if req.Method() == lsproto.MethodWorkspaceApplyEdit {
				texts := editTexts(req.Params())
				e.mu.Lock()
				e.texts = texts // checked by ApplyEdit, after beforeApply
				e.mu.Unlock()
			}
			return inner(ctx, req)
		}
	}
	if o.handle != nil {
		inner := h
		h = func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
			if res, err, ok := o.handle(ctx, req); ok {
				return res, err
			}
			return inner(ctx, req)
		}
	}
	e.conn.Go(context.Background(), h)
	e.server = lsproto.ServerDispatcher(e.conn)
	e.initialize()
	t.Cleanup(e.quit)
	return e
}

func (e *fakeEditor) initialize() {
	yes := true
	ops := []lsproto.ResourceOperationKind{lsproto.ResourceOperationKindCreate, lsproto.ResourceOperationKindRename, lsproto.ResourceOperationKindDelete}
	if e.opts.noRename {
		ops = ops[:1]
	}
	we := &lsproto.WorkspaceEditClientCapabilities{ResourceOperations: ops, DocumentChanges: &yes}
	if e.opts.plain {
		we = &lsproto.WorkspaceEditClientCapabilities{}
	}
	if e.opts.transactional {
		we.FailureHandling = lsproto.FailureHandlingKindTextOnlyTransactional
	}
	caps := lsproto.ClientCapabilities{
		Workspace: &lsproto.WorkspaceClientCapabilities{ApplyEdit: &yes, WorkspaceEdit: we},
		Window:    &lsproto.WindowClientCapabilities{WorkDoneProgress: &yes},
	}
	if e.opts.enc == "utf-8" {
		caps.General = &lsproto.GeneralClientCapabilities{PositionEncodings: []lsproto.PositionEncodingKind{"utf-8", "utf-16"}}
	}
	methods := append([]string(nil), e.opts.methods...)
	if e.opts.saves {
		methods = append(methods, protocol.MethodSaveDocuments)
	}
	if e.opts.reviews {
		methods = append(methods, protocol.MethodReview)
	}
	ex, _ := json.Marshal(map[string]protocol.ClientCapabilities{"eukhe": {Kind: "test", Methods: methods, ChecksTexts: e.opts.checksTexts}})
	caps.Experimental = lsproto.LSPAny(ex)
	root := uri.File(e.root)
	name := "fake"
	if e.opts.debounce && !e.opts.gapless {
		name = "Neovim" // versions by changedtick: they skip what the debounce merged
	}
	if e.opts.name != "" {
		name = e.opts.name
	}
	p := &lsproto.InitializeParams{ClientInfo: lsproto.ClientInfo{Name: name}, Capabilities: caps}
	//lint:ignore SA1019 the fake editor is one that sends only rootUri
	p.RootURI = &root
	res, err := e.server.Initialize(e.ctx(), p)
	if err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	want := lsproto.PositionEncodingKindUTF16
	if e.opts.enc == "utf-8" {
		want = lsproto.PositionEncodingKindUTF8
	}
	if res.Capabilities.PositionEncoding != want {
		e.t.Fatalf("the server chose %q positions; the editor offered %q", res.Capabilities.PositionEncoding, e.opts.enc)
	}
	if err := e.server.Initialized(e.ctx(), &lsproto.InitializedParams{}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *fakeEditor) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	e.t.Cleanup(cancel)
	return ctx
}

// quit shuts the server down as an editor does, and checks Serve ended
// cleanly.
func (e *fakeEditor) quit() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.server.Shutdown(ctx); err != nil && !errors.Is(err, jsonrpc2.ErrClientClosing) {
		e.t.Errorf("shutdown: %v", err)
	}
	_ = e.server.Exit(ctx)
	select {
	case err := <-e.served:
		if err != nil {
			e.t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-ctx.Done():
		e.t.Errorf("Serve did not return after exit")
	}
	e.conn.Close()
}

// path is a workspace file's path.
func (e *fakeEditor) path(name string) string { return filepath.Join(e.root, name) }

// put writes a file on disk.
func (e *fakeEditor) put(name, text string) {
	e.t.Helper()
	p := e.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// disk is a file's bytes on disk ("<missing>" when there is none).
func (e *fakeEditor) disk(name string) string {
	b, err := os.ReadFile(e.path(name))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// open opens a buffer with the file's text on disk.
func (e *fakeEditor) open(name string) {
	e.t.Helper()
	b, err := os.ReadFile(e.path(name))
	if err != nil {
		e.t.Fatal(err)
	}
	e.openText(name, string(b))
}

// openText opens a buffer holding text (unsaved changes, when it is not the
// disk's).
func (e *fakeEditor) openText(name, text string) {
	e.t.Helper()
	p := e.path(name)
	u := uri.File(p)
	e.mu.Lock()
	v := int32(1)
	if e.opts.zero {
		v = 0
	}
	e.bufs[p] = &fakeBuf{uri: u, text: text, version: v, tick: v, gapless: e.opts.gapless}
	e.mu.Unlock()
	err := e.server.DidOpen(e.ctx(), &lsproto.DidOpenTextDocumentParams{TextDocument: lsproto.TextDocumentItem{URI: u, LanguageID: "plaintext", Version: v, Text: text}})
	if err != nil {
		e.t.Fatal(err)
	}
}

// close closes a buffer.
func (e *fakeEditor) close(name string) {
	p := e.path(name)
	e.mu.Lock()
	b := e.bufs[p]
	delete(e.bufs, p)
	e.mu.Unlock()
	if b != nil {
		_ = e.server.DidClose(e.ctx(), &lsproto.DidCloseTextDocumentParams{TextDocument: lsproto.TextDocumentIdentifier{URI: b.uri}})
	}
}

// buf is a buffer's text ("<closed>" when it is not open).
func (e *fakeEditor) buf(name string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b := e.bufs[e.path(name)]; b != nil {
		return b.text
	}
	return "<closed>"
}

// typeAt is the user typing s at a position (in the negotiated encoding).
func (e *fakeEditor) typeAt(name string, line, char uint32, s string) {
	e.t.Helper()
	p := e.path(name)
	e.mu.Lock()
	b := e.bufs[p]
	r := lsproto.Range{Start: lsproto.Position{Line: line, Character: char}, End: lsproto.Position{Line: line, Character: char}}
	change := e.applyOne(b, r, s)
	b.tick++
	b.pending = append(b.pending, change)
	debounce := e.opts.debounce
	e.mu.Unlock()
	if !debounce {
		e.flush(name)
	}
}

// flush sends a buffer's held changes as one didChange, at the version the
// buffer is at.
func (e *fakeEditor) flush(name string) { e.flushPath(e.path(name)) }

func (e *fakeEditor) flushPath(path string) {
	e.mu.Lock()
	b := e.bufs[path]
	if b == nil || len(b.pending) == 0 {
		e.mu.Unlock()
		return
	}
	params := b.notification()
	e.mu.Unlock()
	if err := e.server.DidChange(context.Background(), params); err != nil {
		e.t.Error(err)
	}
}

// notification takes a buffer's held changes as one didChange; the caller
// holds mu.
func (b *fakeBuf) notification() *lsproto.DidChangeTextDocumentParams {
	if b.gapless {
		b.version++
	} else {
		b.version = b.tick
	}
	params := &lsproto.DidChangeTextDocumentParams{
		TextDocument:   lsproto.VersionedTextDocumentIdentifier{TextDocumentIdentifier: lsproto.TextDocumentIdentifier{URI: b.uri}, Version: b.version},
		ContentChanges: b.pending,
	}
	b.pending = nil
	return params
}

// offset converts a position to a byte offset, its own way: split the text
// at "\n", count UTF-16 units with utf16.Encode.
func (e *fakeEditor) offset(text string, p lsproto.Position) int {
	ls := strings.SplitAfter(text, "\n")
	if int(p.Line) >= len(ls) {
		return len(text)
	}
	off := 0
	for _, l := range ls[:p.Line] {
		off += len(l)
	}
	line := ls[p.Line]
	if l, ok := strings.CutSuffix(line, "\n"); ok {
		line = strings.TrimSuffix(l, "\r") // a lone "\r" is text
	}
	if e.opts.enc == "utf-8" {
		return off + min(int(p.Character), len(line))
	}
	units := 0
	for i, r := range line {
		if units >= int(p.Character) {
			return off + i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return off + len(line)
}

// applyOne replaces a range of a buffer and gives the change event that
// tells it; the caller holds mu.
func (e *fakeEditor) applyOne(b *fakeBuf, r lsproto.Range, s string) lsproto.TextDocumentContentChangeEvent {
	from, to := e.offset(b.text, r.Start), e.offset(b.text, r.End)
	b.text = b.text[:from] + s + b.text[to:]
	return &lsproto.TextDocumentContentChangePartial{Range: r, Text: s}
}

// tool runs eukhe/tool on the default session.
func (e *fakeEditor) tool(name string, args any) protocol.ToolResult {
	e.t.Helper()
	return e.toolOn("", name, args)
}

func (e *fakeEditor) toolOn(session, name string, args any) protocol.ToolResult {
	e.t.Helper()
	a, _ := json.Marshal(args)
	var raw jsonrpc2.RawMessage
	if err := call(e.ctx(), e.conn, protocol.MethodTool, protocol.ToolParams{Name: name, Arguments: a, Session: session}, &raw); err != nil {
		e.t.Fatalf("eukhe/tool %s: %v", name, err)
	}
	var res protocol.ToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		e.t.Fatal(err)
	}
	return res
}

// decide sends eukhe/reviewDecision.
func (e *fakeEditor) decide(p protocol.ReviewDecisionParams) protocol.ReviewDecisionResult {
	e.t.Helper()
	var raw jsonrpc2.RawMessage
	if err := call(e.ctx(), e.conn, protocol.MethodReviewDecision, p, &raw); err != nil {
		e.t.Fatalf("eukhe/reviewDecision: %v", err)
	}
	var res protocol.ReviewDecisionResult
	if err := json.Unmarshal(raw, &res); err != nil {
		e.t.Fatal(err)
	}
	return res
}

// sync is a round trip: the server has handled every notification sent
// before it (they run in order on its read loop).
func (e *fakeEditor) sync() {
	e.t.Helper()
	e.tool("glob", map[string]any{"pattern": "no-such-name"})
}

// set changes the editor's behaviour under its lock.
func (e *fakeEditor) set(f func(e *fakeEditor)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f(e)
}

// editTexts are the texts an applyEdit's params name (nil: none).
func editTexts(params []byte) map[string]string {
	var p map[string]json.RawMessage
	var texts protocol.EditTexts
	if json.Unmarshal(params, &p) != nil || p[protocol.EditTextsField] == nil || json.Unmarshal(p[protocol.EditTextsField], &texts) != nil {
		return nil
	}
	return texts.Texts
}

// textsMoved is the extension's check of an applyEdit's texts (knob
// checksTexts): why a document they name holds another text, or "". The
// caller holds e.mu.
func (e *fakeEditor) textsMoved(texts map[string]string) string {
	for u, want := range texts {
		path, _ := pathOf(uri.URI(u))
		if b := e.bufs[path]; b != nil && protocol.TextHash([]byte(b.text)) != want {
			return path + " holds another text than the edit was made on: nothing was applied"
		}
	}
	return ""
}

// fakeClient is the editor's side of the LSP methods the server calls.
type fakeClient struct {
	lsproto.UnimplementedClient
	e *fakeEditor
}

// ApplyEdit applies a workspace edit as the knobs say: with every version
// checked first (VS Code), or only the first document's (Neovim, which
// then skips that document silently and still answers applied: true).
func (c *fakeClient) ApplyEdit(_ context.Context, p *lsproto.ApplyWorkspaceEditParams) (*lsproto.ApplyWorkspaceEditResult, error) {
	e := c.e
	e.mu.Lock()
	e.applyCalls++
	n := e.applyCalls
	e.edits = append(e.edits, p.Edit)
	hold, before := e.hold, e.beforeApply
	e.mu.Unlock()
	if hold != nil {
		<-hold
	}
	if before != nil {
		before(n)
	}
	e.mu.Lock()
	if e.refuse {
		e.mu.Unlock()
		return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("the user said no")}, nil
	}
	if why := e.textsMoved(e.texts); e.opts.checksTexts && why != "" {
		e.mu.Unlock()
		return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr(why)}, nil
	}
	if e.lie {
		e.mu.Unlock()
		return &lsproto.ApplyWorkspaceEditResult{Applied: true}, nil
	}
	if d := e.applyAfter; d > 0 {
		e.mu.Unlock()
		go func() {
			time.Sleep(d)
			e.mu.Lock()
			defer e.mu.Unlock()
			for _, dc := range p.Edit.DocumentChanges {
				if td, ok := dc.(*lsproto.TextDocumentEdit); ok {
					path, _ := pathOf(td.TextDocument.URI)
					e.applyTextEdits(e.bufs[path], td.Edits)
				}
			}
		}()
		return &lsproto.ApplyWorkspaceEditResult{Applied: true}, nil
	}
	if e.opts.plain {
		if len(p.Edit.DocumentChanges) > 0 {
			e.mu.Unlock()
			return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("documentChanges: not announced, not supported")}, nil
		}
		var notes []func()
		for u, edits := range p.Edit.Changes {
			path, _ := pathOf(u)
			b := e.bufs[path]
			if b == nil {
				e.mu.Unlock()
				return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("no buffer " + path)}, nil
			}
			var els []lsproto.TextDocumentEditElement
			for _, x := range edits {
				els = append(els, &x)
			}
			notes = append(notes, e.applyTextEdits(b, els))
		}
		e.mu.Unlock()
		for _, f := range notes {
			f()
		}
		return &lsproto.ApplyWorkspaceEditResult{Applied: true}, nil
	}
	if e.opts.transactional {
		for _, dc := range p.Edit.DocumentChanges {
			if td, ok := dc.(*lsproto.TextDocumentEdit); ok {
				path, _ := pathOf(td.TextDocument.URI)
				b := e.bufs[path]
				if b == nil || td.TextDocument.Version == nil || *td.TextDocument.Version != b.tick {
					e.mu.Unlock()
					return &lsproto.ApplyWorkspaceEditResult{Applied: false}, nil
				}
			}
		}
	}
	var notes []func()
	for i, dc := range p.Edit.DocumentChanges {
		switch dc := dc.(type) {
		case *lsproto.TextDocumentEdit:
			path, _ := pathOf(dc.TextDocument.URI)
			b := e.bufs[path]
			if b == nil {
				e.mu.Unlock()
				return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("no buffer " + path)}, nil
			}
			v := dc.TextDocument.Version
			if i == 0 && v != nil && *v > 0 && b.tick > *v {
				continue // "Buffer newer than edits": skipped, silently
			}
			notes = append(notes, e.applyTextEdits(b, dc.Edits))
		case *lsproto.RenameFile:
			notes = append(notes, e.rename(dc)...)
		default:
			e.mu.Unlock()
			return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("unsupported change")}, nil
		}
	}
	late := e.late
	e.mu.Unlock()
	send := func() {
		for _, f := range notes {
			f()
		}
	}
	if late {
		go func() { time.Sleep(30 * time.Millisecond); send() }()
	} else {
		send()
	}
	return &lsproto.ApplyWorkspaceEditResult{Applied: true}, nil
}

// applyTextEdits applies one document's edits (all in the positions of
// the text before them) from the last to the first, and gives the
// didChange that tells them, in that order; the caller holds mu.
func (e *fakeEditor) applyTextEdits(b *fakeBuf, edits []lsproto.TextDocumentEditElement) func() {
	type te struct {
		r    lsproto.Range
		text string
		at   int
	}
	var ts []te
	for _, el := range edits {
		x := el.(*lsproto.TextEdit)
		ts = append(ts, te{x.Range, x.NewText, e.offset(b.text, x.Range.Start)})
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].at > ts[j].at })
	for _, x := range ts {
		b.pending = append(b.pending, e.applyOne(b, x.r, x.text))
	}
	b.tick++
	if e.opts.debounce {
		// sent with the next flush, or by the debounce's own timer
		path, _ := pathOf(b.uri)
		return func() {
			go func() { time.Sleep(20 * time.Millisecond); e.flushPath(path) }()
		}
	}
	params := b.notification()
	if path, _ := pathOf(b.uri); e.tellLate[path] > 0 {
		d := e.tellLate[path]
		return func() {
			go func() { time.Sleep(d); _ = e.server.DidChange(context.Background(), params) }()
		}
	}
	return func() { _ = e.server.DidChange(context.Background(), params) }
}

// rename moves a file as VS Code does: on disk as it is, the buffer (and
// its unsaved text) to the new name; a taken destination is skipped, as
// Neovim does.
func (e *fakeEditor) rename(r *lsproto.RenameFile) []func() {
	from, _ := pathOf(r.OldURI)
	to, _ := pathOf(r.NewURI)
	if _, err := os.Lstat(to); err == nil {
		return nil
	}
	if _, ok := e.bufs[to]; ok {
		return nil
	}
	_ = os.MkdirAll(filepath.Dir(to), 0o755)
	_ = os.Rename(from, to)
	b := e.bufs[from]
	if b == nil {
		return nil
	}
	delete(e.bufs, from)
	nb := &fakeBuf{uri: r.NewURI, text: b.text, version: 1, tick: 1}
	e.bufs[to] = nb
	e.closedAfter = append(e.closedAfter, from)
	return []func(){func() {
		_ = e.server.DidClose(context.Background(), &lsproto.DidCloseTextDocumentParams{TextDocument: lsproto.TextDocumentIdentifier{URI: b.uri}})
		_ = e.server.DidOpen(context.Background(), &lsproto.DidOpenTextDocumentParams{TextDocument: lsproto.TextDocumentItem{URI: nb.uri, Version: 1, Text: nb.text}})
	}}
}

// fallback answers the eukhe/* methods the editor implements.
func (e *fakeEditor) fallback(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case protocol.MethodSaveDocuments:
		var p protocol.SaveDocumentsParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		res := protocol.SaveDocumentsResult{Saved: []string{}}
		e.mu.Lock()
		lies := e.saveLies
		e.mu.Unlock()
		for _, u := range p.URIs {
			path, _ := pathOf(uri.URI(u))
			e.mu.Lock()
			b := e.bufs[path]
			var text string
			if b != nil {
				text = b.text
			}
			e.mu.Unlock()
			if lies {
				res.Saved = append(res.Saved, u)
				continue
			}
			if b == nil || os.WriteFile(path, []byte(text), 0o644) != nil {
				continue
			}
			e.mu.Lock()
			e.saved = append(e.saved, path)
			e.mu.Unlock()
			res.Saved = append(res.Saved, u)
			_ = e.server.DidSave(ctx, &lsproto.DidSaveTextDocumentParams{TextDocument: lsproto.TextDocumentIdentifier{URI: uri.URI(u)}})
		}
		b, _ := json.Marshal(res)
		return jsonrpc2.RawMessage(b), nil
	case protocol.MethodReview:
		var p protocol.ReviewParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		e.mu.Lock()
		e.reviewed = append(e.reviewed, p)
		e.mu.Unlock()
		return nil, nil
	}
	return jsonrpc2.MethodNotFoundHandler(ctx, req)
}

// lastReview waits for the newest eukhe/review (it is a notification, so
// it may arrive just after the edit's reply).
func (e *fakeEditor) lastReview() protocol.ReviewParams {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.mu.Lock()
		n := len(e.reviewed)
		var last protocol.ReviewParams
		if n > 0 {
			last = e.reviewed[n-1]
		}
		e.mu.Unlock()
		if n > 0 {
			return last
		}
		if time.Now().After(deadline) {
			e.t.Fatal("no eukhe/review came")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// tagOf reads a file's tag from a read's header.
func tagOf(t testing.TB, read string) string {
	t.Helper()
	head, _, _ := strings.Cut(read, "\n")
	i := strings.LastIndex(head, "#")
	if i < 0 || !strings.HasSuffix(head, "]") {
		t.Fatalf("no tag in %q", head)
	}
	return head[i+1 : len(head)-1]
}
