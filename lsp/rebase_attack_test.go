package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"
)

// The red team's attacks on rebase under typing, through the in-process
// editor: the bytes an edit does not touch, a refusing editor, an editor
// that applies and then says it did not, a two-file edit half rebased.

// oneFile opens name holding text and gives its tag.
func oneFile(t *testing.T, e *fakeEditor, name, text string) string {
	t.Helper()
	e.put(name, text)
	e.open(name)
	return tagOf(t, e.tool("read", map[string]any{"path": name}).Text)
}

// units is the column of the end of s on its line, in the editor's
// encoding.
func units(e *fakeEditor, s string) uint32 {
	if e.opts.enc == "utf-8" {
		return uint32(len(s))
	}
	return uint32(len(utf16.Encode([]rune(s))))
}

// A rebased edit keeps, byte for byte, what it does not touch: a BOM,
// CRLF line endings, a tab, an astral character before the user's
// keystroke (two UTF-16 units), a last line without newline; the user's
// keystroke lands where it was typed and the edit where it was meant.
func TestARebasedEditKeepsTheBytesItDoesNotTouch(t *testing.T) {
	const text = "\uFEFFone\r\ntwo 😀\tend\r\nthree"
	for _, c := range []struct {
		name       string
		o          editorOpts
		edit, line int    // the edit's line (1-based), the typed line (0-based)
		typedAfter string // the keystroke goes right after this text of its line
	}{
		{"VS Code, utf-16, typed before the last line's edit", editorOpts{transactional: true}, 3, 1, "two 😀"},
		{"VS Code, utf-8, typed before the last line's edit", editorOpts{transactional: true, enc: "utf-8"}, 3, 1, "two 😀"},
		{"Neovim, utf-16, typed before the last line's edit", editorOpts{debounce: true}, 3, 1, "two 😀"},
		{"VS Code, utf-16, typed at the end of the last line", editorOpts{transactional: true}, 1, 2, "three"},
		{"Neovim, utf-16, typed at the end of the last line", editorOpts{debounce: true}, 1, 2, "three"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.wait = 300 * time.Millisecond
			patch := func(tag string) string { return fmt.Sprintf("[a.txt#%s]\n@@ %d\n+EDITED ✓\n", tag, c.edit) }
			control := newEditor(t, c.o)
			if got := control.tool("edit", map[string]any{"patch": patch(oneFile(t, control, "a.txt", text))}); got.IsError {
				t.Fatalf("the edit without typing: %s", got.Text)
			}
			landed := control.buf("a.txt")

			e := newEditor(t, c.o)
			tag := oneFile(t, e, "a.txt", text)
			e.set(func(e *fakeEditor) {
				e.beforeApply = func(call int) {
					if call == 1 {
						e.typeAt("a.txt", uint32(c.line), units(e, c.typedAfter), "K")
						if e.opts.debounce {
							go func() { time.Sleep(10 * time.Millisecond); e.flush("a.txt") }()
						}
					}
				}
			})
			got := e.tool("edit", map[string]any{"patch": patch(tag)})
			want := strings.Replace(landed, c.typedAfter, c.typedAfter+"K", 1)
			if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") {
				t.Fatalf("reply:\n%s\nbuffer %q", got.Text, e.buf("a.txt"))
			}
			if b := e.buf("a.txt"); b != want {
				t.Fatalf("buffer %q, want %q (the edit without typing left %q)", b, want, landed)
			}
		})
	}
}

// Typing that is exactly the edit's text, on the edit's line, before
// Neovim (which then skips the stale edit) or VS Code (which refuses it)
// applies it: the text is there once, never twice, and the reply says
// so without a contradiction.
func TestTypingThatIsExactlyTheEditIsToldOnce(t *testing.T) {
	for _, o := range []editorOpts{{debounce: true, wait: 300 * time.Millisecond}, {transactional: true, wait: 300 * time.Millisecond}} {
		e := newEditor(t, o)
		tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
		e.set(func(e *fakeEditor) {
			e.beforeApply = func(call int) {
				if call == 1 {
					e.typeAt("a.txt", 1, 3, "X")
					if e.opts.debounce {
						go func() { time.Sleep(10 * time.Millisecond); e.flush("a.txt") }()
					}
				}
			}
		})
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+twoX\n"})
		if b := e.buf("a.txt"); b != "one\ntwoX\nthree\n" {
			t.Fatalf("%+v: buffer %q, reply:\n%s", o, b, got.Text)
		}
		if got.IsError == strings.HasPrefix(got.Text, "Applied") {
			t.Fatalf("%+v: the reply contradicts itself:\n%s", o, got.Text)
		}
	}
}

// An editor that refuses every edit while the user keeps typing on
// another line (each refusal is stale, so each is rebased): it ends in a
// clear refusal after maxRebases sends, the typing all kept. An editor
// that answers every edit with an error ends the same way.
func TestAnEditorThatNeverAppliesWhileTheUserTypesEndsInARefusal(t *testing.T) {
	for _, how := range []string{"refuses", "errs", "per document, errs"} {
		t.Run(how, func(t *testing.T) {
			var e *fakeEditor
			o := editorOpts{transactional: how != "per document, errs", wait: 500 * time.Millisecond}
			if strings.HasSuffix(how, "errs") {
				o.handle = func(_ context.Context, req *jsonrpc2.Request) (any, error, bool) {
					if req.Method() != "workspace/applyEdit" {
						return nil, nil, false
					}
					e.mu.Lock()
					e.applyCalls++
					e.mu.Unlock()
					e.typeAt("a.txt", 2, 0, "t")
					return nil, errors.New("internal error"), true
				}
			}
			e = newEditor(t, o)
			tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
			e.set(func(e *fakeEditor) {
				e.refuse = true
				e.beforeApply = func(int) { e.typeAt("a.txt", 2, 0, "t") }
			})
			start := time.Now()
			got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
			e.mu.Lock()
			calls := e.applyCalls
			e.mu.Unlock()
			if !got.IsError || !strings.HasPrefix(got.Text, "NOT applied to a.txt") {
				t.Fatalf("reply:\n%s", got.Text)
			}
			if calls < 1 || calls > maxRebases {
				t.Fatalf("%d applyEdit requests (at most %d)", calls, maxRebases)
			}
			if b := e.buf("a.txt"); b != "one\ntwo\n"+strings.Repeat("t", calls)+"three\n" {
				t.Fatalf("buffer %q after %d requests", b, calls)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Fatalf("it took %v", d)
			}
		})
	}
}

// A two-file edit to a per-document client (Neovim): the first file is
// stale (typing on another line) and rebased and lands; the second is
// stale with typing on the edit's own line and is refused: the first is
// put back with the user's typing kept, the reply says NOT applied to
// both, and the closed file is not written.
func TestATwoFileEditHalfRebasedHalfRefusedLandsNowhere(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			name, line := "", uint32(0)
			switch call {
			case 1:
				name, line = "a.txt", 2 // not the edit's line: rebased
			case 3:
				name, line = "b.txt", 1 // the edit's own line: refused
			default:
				return
			}
			e.typeAt(name, line, 0, "typed ")
			go func() { time.Sleep(10 * time.Millisecond); e.flush(name) }()
		}
	})
	got := e.tool("edit", map[string]any{"patch": patch})
	if !got.IsError || strings.Contains(got.Text, "Applied to") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	if b := e.buf("a.txt"); b != "a one\na two\ntyped a three\n" {
		t.Errorf("buffer a.txt = %q: the rebased edit must be put back, the typing kept", b)
	}
	if b := e.buf("b.txt"); b != "b one\ntyped b two\nb three\n" {
		t.Errorf("buffer b.txt = %q", b)
	}
	if d := e.disk("c.txt"); d != "c one\nc two\nc three\n" {
		t.Errorf("c.txt on disk = %q", d)
	}
}

// The user types on another line and then takes it back before the apply
// (the version moved, the text did not): the editor refuses the stale
// version, and the edit, made again on the same text, lands.
func TestTypingTakenBackBeforeTheApplyStillLandsTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 2, 0, "x")
				e.mu.Lock()
				b := e.bufs[e.path("a.txt")]
				ch := e.applyOne(b, lsproto.Range{Start: lsproto.Position{Line: 2}, End: lsproto.Position{Line: 2, Character: 1}}, "")
				b.tick++
				b.pending = append(b.pending, ch)
				e.mu.Unlock()
				e.flush("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if got.IsError || e.buf("a.txt") != "ONE\ntwo\nthree\n" {
		t.Fatalf("buffer %q, reply:\n%s", e.buf("a.txt"), got.Text)
	}
}

// applyThenSay makes an editor that applies every edit as the fake one
// does and then answers applied: false (Neovim answers applied: false
// when apply_workspace_edit fails after its first document's text edits
// were made, e.g. on a rename).
func applyThenSay(e **fakeEditor, answer error) func(context.Context, *jsonrpc2.Request) (any, error, bool) {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		if req.Method() != "workspace/applyEdit" {
			return nil, nil, false
		}
		var p lsproto.ApplyWorkspaceEditParams
		if err := (codec{}).Unmarshal(req.Params(), &p); err != nil {
			return nil, err, true
		}
		if _, err := (&fakeClient{e: *e}).ApplyEdit(ctx, &p); err != nil {
			return nil, err, true
		}
		if answer != nil {
			return nil, answer, true
		}
		return &lsproto.ApplyWorkspaceEditResult{Applied: false, FailureReason: ptr("a later change failed")}, nil, true
	}
}

// An editor that applied an edit and then answered applied: false (or
// with an error), its didChange held by Neovim's debounce: the edit is in
// the buffer, so the reply must not say NOT applied, and the edit is
// never sent twice.
func TestAnEditAppliedThenRefusedIsNotCalledNotApplied(t *testing.T) {
	for _, answer := range []error{nil, errors.New("apply_workspace_edit: a later change failed")} {
		var e *fakeEditor
		e = newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond, handle: applyThenSay(&e, answer)})
		tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
		got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
		b := e.buf("a.txt")
		if b != "one\nTWO\nthree\n" {
			t.Fatalf("answer %v: buffer %q (the edit sent twice?), reply:\n%s", answer, b, got.Text)
		}
		if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") {
			t.Fatalf("answer %v: the edit is in the buffer, the reply says:\n%s", answer, got.Text)
		}
	}
}

// The same in a two-file edit: the first document applied then refused
// counts as landed, so the edit goes on to the second, and lands whole.
func TestAnEditAppliedThenRefusedInATwoFileEditLandsWhole(t *testing.T) {
	var e *fakeEditor
	say := applyThenSay(&e, nil)
	first := true
	e = newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond, handle: func(ctx context.Context, req *jsonrpc2.Request) (any, error, bool) {
		if req.Method() == "workspace/applyEdit" && first {
			first = false
			return say(ctx, req)
		}
		return nil, nil, false
	}})
	patch := threeFiles(t, e)
	got := e.tool("edit", map[string]any{"patch": patch})
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt#") || strings.Contains(got.Text, "NOT") {
		t.Fatalf("reply:\n%s", got.Text)
	}
	for _, n := range []string{"a", "b"} {
		if b := e.buf(n + ".txt"); b != fmt.Sprintf("%s one\n%s TWO\n%s three\n", n, n, n) {
			t.Errorf("buffer %s.txt = %q", n, b)
		}
	}
	if d := e.disk("c.txt"); d != "c one\nc TWO\nc three\n" {
		t.Errorf("c.txt on disk = %q", d)
	}
}

// Neovim applies the edit and the user takes it back at once (u), inside
// Neovim's debounce: the one didChange tells a later version holding the
// old text, which is what a skipped edit looks like. The user's undo is
// the user's change of the edit's lines: the edit must not be sent again
// over it.
func TestAnEditTheUserUndidAtOnceIsNotSentAgain(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() { time.Sleep(5 * time.Millisecond); replaceLine(e, "a.txt", 1, "two") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	if b := e.buf("a.txt"); b != "one\ntwo\nthree\n" || calls != 1 {
		t.Fatalf("the user's undo of the edit was overwritten: buffer %q after %d applyEdit requests; reply:\n%s", b, calls, got.Text)
	}
}

// Neovim without the plugin, a buffer at version 0 with a keystroke held
// in the debounce on another line: the probe makes Neovim tell it, and the
// edit is made again over it and lands, the keystroke kept.
func TestAnEditAtVersionZeroIsRebasedOverUnseenTypingElsewhere(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, zero: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.typeAt("a.txt", 2, 0, "typed\n") // held: the server still has version 0
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	e.flush("a.txt")
	if b := e.buf("a.txt"); got.IsError || b != "ONE\ntwo\ntyped\nthree\n" {
		t.Fatalf("buffer %q, reply:\n%s", b, got.Text)
	}
}

// An edit with a move of an open buffer, the user typing on another line
// before the apply: the edit is made again over the typing, moves the
// buffer, and the typing goes with it.
func TestARebasedMoveKeepsTheTyping(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "old.txt", "x\ny\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("old.txt", 1, 0, "typed ")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": fmt.Sprintf("[old.txt#%s]\n@@ 1\n+X\nMV sub/new.txt\n", tag)})
	if b := e.buf("sub/new.txt"); got.IsError || b != "X\ntyped y\n" || e.buf("old.txt") != "<closed>" {
		t.Fatalf("buffer at the new name %q, at the old %q; reply:\n%s", b, e.buf("old.txt"), got.Text)
	}
}

// The user turns every line ending to CRLF between the check and the
// apply: every line changed, the edit's too, so it is refused, naming the
// lines, and the user's text stays as it is.
func TestLineEndingsChangedUnderTheEditRefuseIt(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				for l := range uint32(3) {
					e.typeAt("a.txt", l, units(e, strings.Split(e.buf("a.txt"), "\n")[l]), "\r")
				}
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	if b := e.buf("a.txt"); !got.IsError || b != "one\r\ntwo\r\nthree\r\n" || !strings.Contains(got.Text, "line 3") {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
}

// A two-file edit whose second document does not land (Neovim skips it,
// the user typed on its line: not confirmed, never guessed), while the
// user types on the first document's edited line during its put-back: the
// put-back cannot be made over that typing, so the first document keeps
// the edit, and the reply says so: never NOT applied about a document
// that holds the edit, and the closed file not written.
func TestAPutBackRefusedByTypingIsToldAsLanded(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	patch := threeFiles(t, e)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			name := ""
			switch call {
			case 2:
				name = "b.txt" // the edit's own line: refused
			case 3:
				name = "a.txt" // the put-back's own line
			default:
				return
			}
			e.typeAt(name, 1, 0, "typed ")
			go func() { time.Sleep(10 * time.Millisecond); e.flush(name) }()
		}
	})
	got := e.tool("edit", map[string]any{"patch": patch})
	a := e.buf("a.txt")
	if a != "a one\ntyped a TWO\na three\n" {
		t.Fatalf("buffer a.txt = %q; reply:\n%s", a, got.Text)
	}
	if !strings.HasPrefix(got.Text, "Applied to a.txt#") || !strings.Contains(got.Text, "a.txt was not restored") || !strings.Contains(got.Text, "NOT applied to c.txt") {
		t.Fatalf("a.txt holds the edit; the reply:\n%s", got.Text)
	}
	if b := e.buf("b.txt"); b != "b one\ntyped b two\nb three\n" {
		t.Errorf("buffer b.txt = %q", b)
	}
	if d := e.disk("c.txt"); d != "c one\nc two\nc three\n" {
		t.Errorf("c.txt on disk = %q", d)
	}
}

// The real VS Code's race (CI): the user types a key each 20 ms for over
// a second, and the editor tells each key 60 ms after it (a loaded
// machine), refusing every edit whose version it has passed. Sent again
// at once after each refusal, the edit met the next untold key each time
// and its sends ran out while the user still typed; it waits for a pause
// in the typing now, and lands, rebased, with every key kept.
func TestAnEditLandsWhileTheUserTypesFasterThanTheEditorTells(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, debounce: true, name: "fake"})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\nfour\n")
	const keys = 60
	stop := make(chan struct{})
	told := make(chan struct{})
	go func() { // the editor tells what changed each 60 ms
		defer close(told)
		for {
			select {
			case <-stop:
				return
			case <-time.After(60 * time.Millisecond):
				e.flush("a.txt")
			}
		}
	}()
	defer func() { close(stop); <-told }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range keys {
			e.typeAt("a.txt", 0, uint32(3+i), "k")
			time.Sleep(20 * time.Millisecond)
		}
	}()
	time.Sleep(100 * time.Millisecond)
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 4\n+FOUR\n"})
	<-done
	if got.IsError || !strings.HasPrefix(got.Text, "Applied to a.txt") && !strings.HasPrefix(got.Text, "Rebased") {
		e.mu.Lock()
		calls := e.applyCalls
		e.mu.Unlock()
		t.Fatalf("the edit did not land while the user typed (%d sends):\n%s", calls, got.Text)
	}
	if b, want := e.buf("a.txt"), "one"+strings.Repeat("k", keys)+"\ntwo\nthree\nFOUR\n"; b != want {
		t.Fatalf("buffer %q, want %q", b, want)
	}
}

// Neovim without the plugin applies the edit and the user, inside
// Neovim's debounce, takes it back (u) and types on another line: the one
// didChange ends at a text that holds the old lines with typing elsewhere,
// which is what a skipped stale edit looks like. Its changes, though, pass
// through the edit's text on the way (Neovim sends each change of its
// debounce in the one notification): the overlay marks the watch passed
// (overlay.applyChanges looks at every change), and the edit is not sent
// again over the undo; the reply says it is not confirmed, and why (the
// user's typing may have gone through the same text: the twenty-third
// red team's row, so it is not called applied).
func TestAnEditTheUserUndidWhileTypingElsewhereIsNotSentAgain(t *testing.T) {
	e := newEditor(t, editorOpts{debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() {
					time.Sleep(5 * time.Millisecond)
					e.typeAt("a.txt", 0, 0, "x") // held in the debounce
					replaceLine(e, "a.txt", 1, "two")
				}()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+TWO\n"})
	e.mu.Lock()
	calls := e.applyCalls
	e.mu.Unlock()
	if b := e.buf("a.txt"); b != "xone\ntwo\nthree\n" || calls != 1 {
		t.Fatalf("the user's undo of the edit was overwritten: buffer %q after %d applyEdit requests; reply:\n%s", b, calls, got.Text)
	}
	if !strings.Contains(got.Text, "changed back") || strings.Contains(got.Text, "Applied") {
		t.Fatalf("the reply does not say the buffer showed the edit and changed back, or says it applied:\n%s", got.Text)
	}
}

// A document with no unsaved changes when the edit was checked, the user
// typing before the apply: the edit is made again over the typing and
// lands, and the buffer now holds the user's unsaved keystrokes: eukhe
// does not save them behind the user's back (it saves only a document
// that holds nothing unsaved but the edit), and says the edit is unsaved.
func TestARebasedEditDoesNotSaveTheUsersTyping(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, transactional: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.typeAt("a.txt", 2, 0, "half-typ")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if b := e.buf("a.txt"); got.IsError || b != "ONE\ntwo\nhalf-typthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if d := e.disk("a.txt"); d != "one\ntwo\nthree\n" {
		t.Fatalf("the user's unsaved keystrokes were saved: disk %q; reply:\n%s", d, got.Text)
	}
	if !strings.Contains(got.Text, "unsaved") {
		t.Errorf("the reply does not say the edit is unsaved:\n%s", got.Text)
	}
}

// The user types right after the edit lands, inside Neovim's debounce:
// the one didChange holds the edit and the typing (it landed: the typing
// is on another line), and the save must not write the typing to disk.
func TestALandingWithTypingDoesNotSaveTheUsersTyping(t *testing.T) {
	e := newEditor(t, editorOpts{saves: true, debounce: true, wait: 300 * time.Millisecond})
	tag := oneFile(t, e, "a.txt", "one\ntwo\nthree\n")
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				go func() { time.Sleep(5 * time.Millisecond); e.typeAt("a.txt", 2, 0, "half-typ"); e.flush("a.txt") }()
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+ONE\n"})
	if b := e.buf("a.txt"); got.IsError || b != "ONE\ntwo\nhalf-typthree\n" {
		t.Fatalf("buffer %q; reply:\n%s", b, got.Text)
	}
	if d := e.disk("a.txt"); d != "one\ntwo\nthree\n" {
		t.Fatalf("the user's unsaved keystrokes were saved: disk %q; reply:\n%s", d, got.Text)
	}
}

// The user closes a buffer that was opened with unsaved text (VS Code
// restores them at version 1) and opens the file again between eukhe's
// check and the editor's apply: the new buffer is at version 1 too, so a
// version check passes. The VS Code extension checks the text each
// document's edit was made on (protocol.ChecksTexts: eukhe sends its
// hash), refuses the edit, and nothing of it lands on the reopened text;
// the edit, made again on that text, meets the lines that differ there
// and is refused with them.
func TestAReopenedBufferAtTheSameVersionDoesNotTakeTheEdit(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.put("a.txt", "disk one\ndisk two\n")
	e.openText("a.txt", "one\ntwo\nthree\n")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	e.set(func(e *fakeEditor) {
		e.beforeApply = func(call int) {
			if call == 1 {
				e.close("a.txt")
				e.open("a.txt")
			}
		}
	})
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 3\n+THREE\n"})
	if b := e.buf("a.txt"); b != "disk one\ndisk two\n" {
		t.Fatalf("the edit landed on the reopened buffer's other text: %q; reply:\n%s", b, got.Text)
	}
	if !got.IsError || strings.Contains(got.Text, "Applied") || !strings.Contains(got.Text, "opened again") {
		t.Fatalf("the reply does not say the edit did not land:\n%s", got.Text)
	}
}

// With the text check, edits land as before: one file, and two at once.
func TestEditsLandWhenTheEditorChecksTheirTexts(t *testing.T) {
	e := newEditor(t, editorOpts{transactional: true, checksTexts: true, wait: 300 * time.Millisecond})
	e.openText("a.txt", "one\ntwo\n")
	e.openText("b.txt", "uno\ndos\n")
	ta := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	tb := tagOf(t, e.tool("read", map[string]any{"path": "b.txt"}).Text)
	got := e.tool("edit", map[string]any{"patch": "[a.txt#" + ta + "]\n@@ 1\n+ONE\n[b.txt#" + tb + "]\n@@ 2\n+DOS\n"})
	if a, b := e.buf("a.txt"), e.buf("b.txt"); got.IsError || a != "ONE\ntwo\n" || b != "uno\nDOS\n" {
		t.Fatalf("a.txt %q, b.txt %q; reply:\n%s", a, b, got.Text)
	}
}
