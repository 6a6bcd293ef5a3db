package lsp

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/protocol"
)

// heldEdit starts an edit of a.txt (open) that the editor holds, and
// returns once its applyEdit reached the editor.
func heldEdit(t *testing.T, e *fakeEditor, patch string, hold chan struct{}) chan protocol.ToolResult {
	t.Helper()
	e.set(func(e *fakeEditor) { e.hold = hold })
	done := make(chan protocol.ToolResult, 1)
	go func() { done <- e.tool("edit", map[string]any{"patch": patch}) }()
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for {
		e.mu.Lock()
		n := e.applyCalls
		e.mu.Unlock()
		if n > 0 {
			return done
		}
		if time.Now().After(deadline) {
			t.Fatal("the edit never reached the editor")
		}
		time.Sleep(time.Millisecond)
	}
}

// An editor that sits on one applyEdit delays only edits of its open
// documents: three other sessions' edits of closed files, here and in
// another directory, land meanwhile (issue: nothing stuck).
func TestLaw_a_slow_editor_delays_only_its_documents(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a\n")
	for _, f := range []string{"c1.txt", "sub/c2.txt", "other/c3.txt"} {
		e.put(f, "c\n")
	}
	e.open("a.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	hold := make(chan struct{})
	done := heldEdit(t, e, "[a.txt#"+tag+"]\n@@ 1\n+A\n", hold)
	for k, f := range []string{"c1.txt", "sub/c2.txt", "other/c3.txt"} {
		session := []string{"s1", "s2", "s3"}[k]
		ftag := tagOf(t, e.toolOn(session, "read", map[string]any{"path": f}).Text)
		r := e.toolOn(session, "edit", map[string]any{"patch": "[" + f + "#" + ftag + "]\n@@ 1\n+C\n"})
		if r.IsError || e.disk(f) != "C\n" {
			t.Fatalf("the edit of closed %s while the editor holds another: %s", f, r.Text)
		}
	}
	select {
	case r := <-done:
		t.Fatalf("the held edit ended: %s", r.Text)
	default:
	}
	close(hold)
	if r := <-done; r.IsError || e.buf("a.txt") != "A\n" {
		t.Fatalf("the held edit after the hold: %s", r.Text)
	}
}

// An editor that answers after the call's timeout (LSP lets it): the
// reply says "not confirmed", never "NOT applied"; when the edit then
// shows, an edit of that document alone is kept (and reviewed), and the
// document's part of an edit whose closed file was not written is put
// back, so nothing stays half applied.
func TestAnEditorAnsweringLate(t *testing.T) {
	t.Run("the whole edit", func(t *testing.T) {
		e := newEditor(t, editorOpts{callTimeout: 300 * time.Millisecond})
		e.put("a.txt", "a\n")
		e.open("a.txt")
		tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		hold := make(chan struct{})
		r := <-heldEditTimedOut(t, e, "[a.txt#"+tag+"]\n@@ 1\n+A\n", hold)
		if strings.Contains(r.Text, "NOT applied") || !strings.Contains(r.Text, "not confirmed") {
			t.Fatalf("the reply after the timeout: %s", r.Text)
		}
		close(hold)
		waitFor(t, "the late edit in the buffer", func() bool { return e.buf("a.txt") == "A\n" })
	})
	t.Run("with a closed file", func(t *testing.T) {
		e := newEditor(t, editorOpts{callTimeout: 300 * time.Millisecond})
		e.put("a.txt", "a\n")
		e.put("c.txt", "c\n")
		e.open("a.txt")
		atag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
		ctag := tagOf(t, e.tool("read", map[string]any{"path": "c.txt"}).Text)
		hold := make(chan struct{})
		r := <-heldEditTimedOut(t, e, "[a.txt#"+atag+"]\n@@ 1\n+A\n[c.txt#"+ctag+"]\n@@ 1\n+C\n", hold)
		if strings.Contains(r.Text, "Applied to c.txt") || !strings.Contains(r.Text, "not confirmed") || e.disk("c.txt") != "c\n" {
			t.Fatalf("the reply after the timeout: %s (c.txt %q)", r.Text, e.disk("c.txt"))
		}
		close(hold)
		// the late edit lands, then is put back: the buffer ends old
		waitFor(t, "the late edit put back", func() bool {
			e.mu.Lock()
			n := e.applyCalls
			e.mu.Unlock()
			return n >= 2 && e.buf("a.txt") == "a\n"
		})
	})
}

// heldEditTimedOut is heldEdit for an editor whose hold outlasts the
// call's timeout: it returns the reply channel.
func heldEditTimedOut(t *testing.T, e *fakeEditor, patch string, hold chan struct{}) chan protocol.ToolResult {
	t.Helper()
	done := heldEdit(t, e, patch, hold)
	out := make(chan protocol.ToolResult, 1)
	go func() {
		select {
		case r := <-done:
			out <- r
		case <-time.After(60 * time.Second): // a hang guard
			close(hold)
			out <- protocol.ToolResult{Text: "no reply within 60 s"}
		}
	}()
	return out
}

// A stopped editor (a real pipe nobody reads): a write to it fails after
// its deadline instead of blocking for ever; every message is still
// delivered whole and in order once the editor reads again.
func TestBoundedWriter_a_stopped_editor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bw := newBoundedWriter(rwcOf{w}, 200*time.Millisecond)
	defer bw.Close()
	big := bytes.Repeat([]byte("x"), 200<<10) // more than a pipe holds
	msgs := [][]byte{append([]byte("first:"), big...), []byte("second"), []byte("third")}
	for _, m := range msgs {
		if _, err := bw.Write(m); !errors.Is(err, errEditorNotReading) {
			if err == nil {
				continue // the pipe took it
			}
			t.Fatalf("write: %v", err)
		}
	}
	var got bytes.Buffer
	want := len(msgs[0]) + len(msgs[1]) + len(msgs[2])
	buf := make([]byte, 64<<10)
	for got.Len() < want {
		n, err := r.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(buf[:n])
	}
	if !bytes.Equal(got.Bytes(), bytes.Join(msgs, nil)) {
		t.Fatalf("the editor read %d bytes, not the messages whole and in order", got.Len())
	}
}

type rwcOf struct{ w *os.File }

func (p rwcOf) Read([]byte) (int, error)    { return 0, errors.New("write only") }
func (p rwcOf) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p rwcOf) Close() error                { return p.w.Close() }
