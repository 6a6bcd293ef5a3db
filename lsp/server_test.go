package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/protocol"
)

// The connection: capabilities, no head-of-line blocking while an edit
// waits on the editor, eukhe/tool errors, shutdown and exit.

func TestInitializeAnswersTheServerCapabilities(t *testing.T) {
	srv := New(Options{Root: t.TempDir()})
	a, b := net.Pipe()
	go srv.Serve(context.Background(), a)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(codec{}))
	conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	defer conn.Close()
	server := lsproto.ServerDispatcher(conn)
	res, err := server.Initialize(context.Background(), &lsproto.InitializeParams{})
	if err != nil {
		t.Fatal(err)
	}
	caps := res.Capabilities
	if caps.PositionEncoding != lsproto.PositionEncodingKindUTF16 {
		t.Errorf("positions %q for a client that offered none", caps.PositionEncoding)
	}
	sync, ok := caps.TextDocumentSync.(*lsproto.TextDocumentSyncOptions)
	if !ok || sync.Change == nil || *sync.Change != lsproto.TextDocumentSyncKindIncremental || sync.OpenClose == nil || !*sync.OpenClose {
		t.Errorf("text sync: %#v", caps.TextDocumentSync)
	}
	var ex map[string]protocol.ServerCapabilities
	if err := json.Unmarshal(caps.Experimental, &ex); err != nil || ex["eukhe"].Version != 1 || len(ex["eukhe"].Methods) != 5 {
		t.Errorf("experimental.eukhe: %s", caps.Experimental)
	}
}

func TestEukheMethodsBeforeInitializeAreRefused(t *testing.T) {
	srv := New(Options{Root: t.TempDir()})
	a, b := net.Pipe()
	go srv.Serve(context.Background(), a)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(codec{}))
	conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	defer conn.Close()
	var raw jsonrpc2.RawMessage
	err := call(context.Background(), conn, protocol.MethodTool, protocol.ToolParams{Name: "read"}, &raw)
	if err == nil || !strings.Contains(err.Error(), "initialize first") {
		t.Fatalf("eukhe/tool before initialize: %v", err)
	}
}

// While an edit waits for the editor's answer, the connection keeps
// serving: didChange and other requests are not stuck behind it.
func TestAnEditWaitingOnTheEditorBlocksNothing(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "a\n")
	e.put("b.txt", "b\n")
	e.open("a.txt")
	e.open("b.txt")
	tag := tagOf(t, e.tool("read", map[string]any{"path": "a.txt"}).Text)
	hold := make(chan struct{})
	e.set(func(e *fakeEditor) { e.hold = hold })
	done := make(chan protocol.ToolResult)
	go func() { done <- e.tool("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 1\n+A\n"}) }()
	for n := 0; n == 0; {
		select {
		case r := <-done:
			t.Fatalf("the edit ended without an applyEdit: %s", r.Text)
		case <-time.After(time.Millisecond):
		}
		e.mu.Lock()
		n = e.applyCalls
		e.mu.Unlock()
	}
	// The applyEdit is held in the editor; the user types in another
	// buffer and another session reads it.
	e.typeAt("b.txt", 0, 1, "!")
	if r := e.toolOn("other", "read", map[string]any{"path": "b.txt"}); !strings.Contains(r.Text, "1:b!") {
		t.Fatalf("a read while an edit is held:\n%s", r.Text)
	}
	select {
	case r := <-done:
		t.Fatalf("the edit finished while its applyEdit was held: %s", r.Text)
	default:
	}
	close(hold)
	if r := <-done; r.IsError || e.buf("a.txt") != "A\n" {
		t.Fatalf("the edit after the hold: %s", r.Text)
	}
}

func TestToolErrorsSayWhatToDo(t *testing.T) {
	e := newEditor(t, editorOpts{})
	if r := e.tool("rm", map[string]any{}); !r.IsError || !strings.Contains(r.Text, "read, edit, write, grep or glob") {
		t.Errorf("unknown tool: %+v", r)
	}
	if r := e.tool("read", map[string]any{"file": "x"}); !r.IsError || !strings.Contains(r.Text, `read has no argument "file"; it takes "i", "path", "raw"`) {
		t.Errorf("bad arguments: %+v", r)
	}
}

func TestServeEndsCleanlyOnlyAfterShutdownAndExit(t *testing.T) {
	for _, c := range []struct {
		name string
		end  func(s lsproto.Server, conn jsonrpc2.Conn)
		want error
	}{
		{"shutdown then exit", func(s lsproto.Server, _ jsonrpc2.Conn) {
			s.Shutdown(context.Background())
			s.Exit(context.Background())
		}, nil},
		{"exit without shutdown", func(s lsproto.Server, _ jsonrpc2.Conn) { s.Exit(context.Background()) }, ErrNoShutdown},
		{"the editor goes away", func(_ lsproto.Server, conn jsonrpc2.Conn) { conn.Close() }, ErrNoShutdown},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := New(Options{Root: t.TempDir()})
			a, b := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- srv.Serve(context.Background(), a) }()
			conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(codec{}))
			conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
			s := lsproto.ServerDispatcher(conn)
			if _, err := s.Initialize(context.Background(), &lsproto.InitializeParams{}); err != nil {
				t.Fatal(err)
			}
			c.end(s, conn)
			select {
			case err := <-served:
				if !errors.Is(err, c.want) {
					t.Fatalf("Serve = %v, want %v", err, c.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("Serve did not return")
			}
			conn.Close()
			if srv.ov.isOpen("/x") {
				t.Fatal("unreachable")
			}
		})
	}
}

// Without an editor the Store is the disk's.
func TestTheStoreWithoutAnEditorIsTheDisk(t *testing.T) {
	dir := t.TempDir()
	srv := New(Options{Root: dir})
	st := srv.Store()
	path := dir + "/a.txt"
	res := st.Commit(nil)
	if res.Conflict != nil {
		t.Fatal(res.Conflict)
	}
	snap, err := st.Read(path)
	if err != nil || snap.Stat.Exists {
		t.Fatalf("read of a missing file: %v %+v", err, snap.Stat)
	}
	_ = fmt.Sprint(io.EOF)
}

// blockedStdin is standard input as Go has it when it is a blocking pipe:
// a Read that Close does not interrupt.
type blockedStdin struct{ net.Conn }

func (b blockedStdin) Close() error { return nil } // stdin's Close leaves a blocked Read blocked

// After shutdown and exit, Serve returns at once even while its reader is
// blocked on a stream that ignores Close (an editor kills a server that
// lingers: Eglot after 0.1 s). closeWait is made an hour, so a Serve that
// waited on the reader would not return within the test.
func TestExitEndsServeWhileTheReaderIsBlocked(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		srv := New(Options{Root: t.TempDir()})
		srv.closeWait = time.Hour
		a, b := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(context.Background(), blockedStdin{Conn: a}) }()
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(codec{}))
		conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
		s := lsproto.ServerDispatcher(conn)
		if _, err := s.Initialize(context.Background(), &lsproto.InitializeParams{}); err != nil {
			t.Fatal(err)
		}
		if shutdown {
			if err := s.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		s.Exit(context.Background())
		err := <-served
		if shutdown && err != nil || !shutdown && !errors.Is(err, ErrNoShutdown) {
			t.Errorf("shutdown %v: Serve = %v", shutdown, err)
		}
		b.Close()
	}
}
