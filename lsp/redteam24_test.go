package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// The twenty-fourth red team's held rows, on the text check of
// workspace/applyEdit (checksTexts), the "passed" watch and links in the
// overlay. The rows that get through are in
// redteam24_open_attacks_test.go and editors/vscode/test/redteam24.test.ts.

// redteam24Capture records the raw params of every applyEdit the fake
// editor gets, before the fake answers it.
func redteam24Capture(o editorOpts, got *[]map[string]json.RawMessage, mu chan struct{}) editorOpts {
	o.handle = func(_ context.Context, req *jsonrpc2.Request) (any, error, bool) {
		if req.Method() == lsproto.MethodWorkspaceApplyEdit {
			var p map[string]json.RawMessage
			_ = json.Unmarshal(req.Params(), &p)
			mu <- struct{}{}
			*got = append(*got, p)
			<-mu
		}
		return nil, nil, false
	}
	return o
}

// A client that does not say checksTexts never gets the "eukhe" member in
// workspace/applyEdit's params (a strict client could refuse an unknown
// member, and a future LSP field of that name would be shadowed only for
// the client that asked for it); one that says it gets, for each
// document, the hash of the text the edit was made on under the very URI
// the edit names.
func TestRedteam24_TheTextsGoOnlyToAClientThatChecksThem(t *testing.T) {
	for _, checks := range []bool{false, true} {
		var got []map[string]json.RawMessage
		mu := make(chan struct{}, 1)
		e := newEditor(t, redteam24Capture(editorOpts{transactional: true, checksTexts: checks, wait: 300 * time.Millisecond}, &got, mu))
		tag := oneFile(t, e, "a.txt", "one\ntwo\n")
		res := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
		if res.IsError || e.buf("a.txt") != "ONE\ntwo\n" {
			t.Fatalf("checks %v: buffer %q; reply:\n%s", checks, e.buf("a.txt"), res.Text)
		}
		mu <- struct{}{}
		if len(got) != 1 {
			t.Fatalf("checks %v: %d applyEdit requests", checks, len(got))
		}
		raw, has := got[0][protocol.EditTextsField]
		<-mu
		if has != checks {
			t.Fatalf("checks %v: the params hold %q: %v", checks, protocol.EditTextsField, has)
		}
		if !checks {
			continue
		}
		var texts protocol.EditTexts
		if err := json.Unmarshal(raw, &texts); err != nil {
			t.Fatal(err)
		}
		want := string(uri.File(e.path("a.txt")))
		if len(texts.Texts) != 1 || texts.Texts[want] != protocol.TextHash([]byte("one\ntwo\n")) {
			t.Errorf("texts %v, want %s: the hash of the text the edit was made on", texts.Texts, want)
		}
	}
}

// redteam24OpenAs opens a buffer under a URI spelled as the editor spells
// it (VS Code: every reserved character percent-encoded, uppercase hex).
func redteam24OpenAs(e *fakeEditor, u uri.URI, text string) {
	e.t.Helper()
	p, _ := pathOf(u)
	e.mu.Lock()
	e.bufs[p] = &fakeBuf{uri: u, text: text, version: 1, tick: 1}
	e.mu.Unlock()
	if err := e.server.DidOpen(e.ctx(), &lsproto.DidOpenTextDocumentParams{TextDocument: lsproto.TextDocumentItem{URI: u, LanguageID: "plaintext", Version: 1, Text: text}}); err != nil {
		e.t.Fatal(err)
	}
}

// redteam24VSCodeURI spells a path as VS Code's Uri.file(p).toString()
// does: every byte outside [A-Za-z0-9-._~/] percent-encoded, uppercase.
func redteam24VSCodeURI(p string) uri.URI {
	var sb strings.Builder
	sb.WriteString("file://")
	for _, c := range []byte(p) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			sb.WriteByte(c)
		default:
			sb.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		}
	}
	return uri.URI(sb.String())
}

// The extension finds the document an edit's text names by comparing its
// URI string with VS Code's document.uri.toString() (after asUri, which
// gives VS Code's canonical spelling back for a URI VS Code spelled): a
// key spelled otherwise would make the check silently pass. eukhe names
// each document by the URI the editor gave at didOpen, canonicalized as
// vscode-uri does (go.lsp.dev/uri: uppercase hex, reserved characters
// encoded), which is VS Code's own spelling: spaces, NFC and NFD é, '#',
// '%', ':' in a name. (Another client's lowercase hex comes back
// uppercase; only VS Code's extension checks texts, and its asUri
// canonicalizes the same way.)
func TestRedteam24_TheTextsNameTheDocumentAsTheEditorSpelledIt(t *testing.T) {
	names := []string{"a b.txt", "caf\u00e9.txt", "cafe\u0301.txt", "x#1.txt", "50%.txt", "c:d.txt", "dir with space/\u00e9#%:.txt", "b!$&'()*,;=@+.txt"}
	for _, name := range names {
		var got []map[string]json.RawMessage
		mu := make(chan struct{}, 1)
		e := newEditor(t, redteam24Capture(editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond}, &got, mu))
		e.put(name, "one\ntwo\n")
		u := redteam24VSCodeURI(e.path(name))
		redteam24OpenAs(e, u, "one\ntwo\n")
		tag := tagOf(t, e.tool("read", map[string]any{"path": name}).Text)
		res := e.tool("edit", map[string]any{"patch": "[" + name + "#" + tag + "]\n@@ 1\n+ONE\n"})
		mu <- struct{}{}
		var texts protocol.EditTexts
		var edit struct {
			Edit struct {
				DocumentChanges []struct {
					TextDocument struct {
						URI string `json:"uri"`
					} `json:"textDocument"`
				} `json:"documentChanges"`
			} `json:"edit"`
		}
		if len(got) > 0 {
			_ = json.Unmarshal(got[0][protocol.EditTextsField], &texts)
			b, _ := json.Marshal(got[0])
			_ = json.Unmarshal(b, &edit)
		}
		<-mu
		if res.IsError || e.buf(name) != "ONE\ntwo\n" {
			t.Errorf("%q: buffer %q; reply:\n%s", name, e.buf(name), res.Text)
		}
		if _, ok := texts.Texts[string(u)]; !ok || len(texts.Texts) != 1 {
			t.Errorf("%q: the texts %v do not name the document as the editor did, %s", name, texts.Texts, u)
		}
		if len(edit.Edit.DocumentChanges) != 1 || edit.Edit.DocumentChanges[0].TextDocument.URI != string(u) {
			t.Errorf("%q: the edit names %+v, the editor %s", name, edit.Edit.DocumentChanges, u)
		}
	}
}

// TextHash of a text as eukhe has it (JSON-decoded from the editor's
// didOpen) is Node's SHA-256 of the JavaScript string the editor sent: a
// lone surrogate (which JSON.stringify writes as "\ud800") and a raw
// invalid UTF-8 byte both decode to U+FFFD in Go, and Node's
// update(s, "utf8") writes a lone surrogate as U+FFFD too; a BOM and CRLF
// are kept by both. The hashes are pinned from Node (the extension's test
// redteam24.test.ts pins the same ones). Else every edit of such a file
// would be refused by the extension, again and again.
func TestRedteam24_TheTextHashIsNodesOnOddTexts(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`"a\ud800b"`, "05087813392efc16fe8ff448920c6328e53af865df39419436659d9ffda90f7b"},
		{"\"a\xffb\"", "05087813392efc16fe8ff448920c6328e53af865df39419436659d9ffda90f7b"},
		{`"\ufeffone\r\ntwo\r\n"`, "a9a5637007682248b93591487526cc6783e927916db7c68ebcc8ef5852587d02"},
	} {
		var s string
		if err := json.Unmarshal([]byte(c.json), &s); err != nil {
			t.Fatal(err)
		}
		if got := protocol.TextHash([]byte(s)); got != c.want {
			t.Errorf("TextHash of %s decoded = %s, Node's %s", c.json, got, c.want)
		}
	}
}

// An edit of a CRLF buffer with a BOM and a lone surrogate lands through
// the text check: the hash eukhe sends is of the text the editor gave.
func TestRedteam24_AnOddTextPassesTheCheck(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	text := "\ufeffone \ufffd\r\ntwo\r\n"
	e.put("a.txt", "disk\r\n")
	e.openText("a.txt", text)
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	res := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
	if b := e.buf("a.txt"); res.IsError || b != "\ufeffone \ufffd\r\nTWO\r\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, res.Text)
	}
}

func redteam24Watches(e *fakeEditor) int {
	e.srv.ov.mu.Lock()
	defer e.srv.ov.mu.Unlock()
	return len(e.srv.ov.watches)
}

// Edits refused by the text check (the buffer closed and opened again at
// another text before the apply), and edits refused by the user, leave no
// watch behind: o.watches does not grow with refusals.
func TestRedteam24_RefusedEditsLeaveNoWatches(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 200 * time.Millisecond, refusedWait: 100 * time.Millisecond})
	for i := range 4 {
		e.put("a.txt", "disk one\ndisk two\n")
		e.openText("a.txt", "one\ntwo\nthree\n")
		tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		e.set(func(e *fakeEditor) {
			e.applyCalls = 0
			e.refuse = i%2 == 1
			e.beforeApply = func(call int) {
				if call == 1 && i%2 == 0 {
					e.close("a.txt")
					e.open("a.txt")
				}
			}
		})
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
		if !got.IsError || strings.Contains(e.buf("a.txt"), "THREE") {
			t.Fatalf("round %d: buffer %q; reply:\n%s", i, e.buf("a.txt"), got.Text)
		}
		if n := redteam24Watches(e); n != 0 {
			t.Fatalf("round %d: %d watches left after a refused edit", i, n)
		}
		e.set(func(e *fakeEditor) { e.refuse = false; e.beforeApply = nil })
		e.close("a.txt")
	}
}

// overlay rows: a file and its links, opened and closed in every order;
// the resolver says which real file each name is.
func redteam24Overlay(links map[string]string) *overlay {
	o := newOverlay()
	o.resolve = func(p string) gate.RealPath {
		if r, ok := links[p]; ok {
			return gate.RealPath{Path: r}
		}
		return gate.RealPath{Path: p}
	}
	return o
}

func redteam24Served(o *overlay, path string) string {
	v, ok := o.get(path)
	if !ok {
		return "<disk>"
	}
	return string(v.data)
}

// The file and one link: a read of the file serves the file's own buffer
// whichever is opened first; closed under its own name, the link's; the
// link closed, the file's own again.
func TestRedteam24_AFileAndALinkInEveryOrder(t *testing.T) {
	dir := t.TempDir()
	f, l := filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt")
	for _, order := range [][]string{{"f", "l"}, {"l", "f"}} {
		o := redteam24Overlay(map[string]string{l: f})
		for _, w := range order {
			if w == "f" {
				o.open(uri.File(f), 1, "own")
			} else {
				o.open(uri.File(l), 1, "link")
			}
		}
		if s := redteam24Served(o, f); s != "own" {
			t.Errorf("%v: a.txt serves %q, not its own buffer", order, s)
		}
		if s := redteam24Served(o, l); s != "link" {
			t.Errorf("%v: link.txt serves %q", order, s)
		}
		o.close(uri.File(l))
		if s := redteam24Served(o, f); s != "own" {
			t.Errorf("%v: the link closed, a.txt serves %q", order, s)
		}
		o.open(uri.File(l), 1, "link")
		o.close(uri.File(f))
		if s := redteam24Served(o, f); s != "link" {
			t.Errorf("%v: closed under its own name, a.txt serves %q, not the link's buffer", order, s)
		}
		if err := o.change(uri.File(l), 2, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: "link 2"}}); err != nil {
			t.Errorf("%v: the link's didChange: %v", order, err)
		}
		if s := redteam24Served(o, f); s != "link 2" {
			t.Errorf("%v: a.txt serves %q after the link's change", order, s)
		}
	}
}

// A didChange of the file's own buffer is taken while a link is open
// (the link opened after it must not take its place under its path).
func TestRedteam24_TheFilesOwnChangesAreTakenWithALinkOpen(t *testing.T) {
	dir := t.TempDir()
	f, l := filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt")
	o := redteam24Overlay(map[string]string{l: f})
	o.open(uri.File(f), 1, "own")
	o.open(uri.File(l), 1, "link")
	if err := o.change(uri.File(f), 2, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: "own 2"}}); err != nil {
		t.Fatalf("the file's own didChange was refused: %v", err)
	}
	if s := redteam24Served(o, f); s != "own 2" {
		t.Errorf("a.txt serves %q", s)
	}
}

// Held: the link's buffer is not served for a file it no longer names;
// the link retargeted (to b.txt) while open: an edit of a.txt must not
// land in the link's buffer, whose save writes b.txt.
func TestRedteam24_ALinkRetargetedWhileOpenDoesNotTakeTheOldTargetsEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "a one\na two\n")
	e.put("b.txt", "b one\nb two\n")
	if err := os.Symlink("a.txt", e.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	e.open("link.txt")
	if err := os.Remove(e.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.txt", e.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	r := e.tool("read", map[string]any{"path": "a.txt"})
	if strings.HasPrefix(r.Text, "[") {
		tag := tagOf(t, r.Text)
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+A ONE\n"})
		if b := e.buf("link.txt"); strings.Contains(b, "A ONE") {
			t.Fatalf("the edit of a.txt went into link.txt's buffer (which now saves to b.txt): %q; reply:\n%s", b, got.Text)
		}
	}
}

// Held since stop 41 (it was open): Two links of a.txt open in the editor, a.txt itself not: a read
// of a.txt serves one of their buffers. The link filed under a.txt's
// path closed, the other is still open, and a.txt must still be served
// from it (the rule drop keeps for a file closed under its own name), not
// from the disk while the editor holds the file's unsaved text.
func TestRedteam24_TheOtherLinkIsTheFilesBufferWhenOneCloses(t *testing.T) {
	dir := t.TempDir()
	f, l1, l2 := filepath.Join(dir, "a.txt"), filepath.Join(dir, "l1.txt"), filepath.Join(dir, "l2.txt")
	links := map[string]string{l1: f, l2: f}
	for _, withFile := range []bool{false, true} {
		for _, closeFirst := range []string{l1, l2} {
			o := redteam24Overlay(links)
			if withFile {
				o.open(uri.File(f), 1, "own")
			}
			o.open(uri.File(l1), 1, "link one")
			o.open(uri.File(l2), 1, "link two")
			if withFile {
				o.close(uri.File(f))
			}
			o.close(uri.File(closeFirst))
			want := "link one"
			if closeFirst == l1 {
				want = "link two"
			}
			if s := redteam24Served(o, f); s != want {
				t.Errorf("file open %v, %s closed: a.txt serves %q; the editor holds it as %q", withFile, filepath.Base(closeFirst), s, want)
			}
		}
	}
}

// Held since stop 41 (it was open): An edit the editor applied and the user took back at once (one
// didChange passes through the edit's text: the watch is "passed") is
// followed until it shows again, while its document stays open: every
// such edit leaves one watch in o.watches, checked with holds (two whole
// document diffs) at every later change of the document. Many of them
// make every keystroke slower; the safe outcome is that they do not pile
// up.
func TestRedteam24_PassedEditsDoNotPileUpWatches(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	lines := []string{"one", "two", "three"}
	counts := []int{}
	for i := range 3 {
		line, mark := lines[i], string(rune('x'+i))
		e.set(func(e *fakeEditor) {
			e.applyCalls = 0
			e.beforeApply = func(call int) {
				if call != 1 {
					return
				}
				go func() {
					for range 200 {
						time.Sleep(5 * time.Millisecond)
						if strings.Contains(e.buf("a.txt"), line+mark) {
							deleteAt(e, "a.txt", uint32(i), uint32(len(line)), 1) // the user's undo, in the same debounce
							e.flush("a.txt")
							return
						}
					}
				}()
			}
		})
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ " + string(rune('1'+i)) + "\n+" + line + mark + "\n"})
		if b := e.buf("a.txt"); b != "one\ntwo\nthree\n" {
			t.Fatalf("round %d: buffer %q; reply:\n%s", i, b, got.Text)
		}
		counts = append(counts, redteam24Watches(e))
		t.Logf("round %d: %d watches; reply:\n%s", i, counts[i], got.Text)
	}
	if counts[len(counts)-1] > 1 {
		t.Errorf("watches after each taken-back edit: %v (they pile up while the document is open)", counts)
	}
}
