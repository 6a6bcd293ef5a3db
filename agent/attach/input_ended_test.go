package attach

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// halfCloser is the agent's side of a link to an editor's server whose
// CloseWrite returns only once the server, told of the end of input,
// closed and the close was read, and a while after: the order in which
// a client's end and the server's close are seen is the one that printed
// "the editor's server … went away; the session goes on headless" when a
// client closed while the editor still ran.
type halfCloser struct {
	net.Conn
	ended   chan struct{} // closed by CloseWrite: the server sees the end of input
	readEOF chan struct{} // closed when a read met the server's close
	once    sync.Once
}

func (h *halfCloser) Read(p []byte) (int, error) {
	n, err := h.Conn.Read(p)
	if err != nil {
		h.once.Do(func() { close(h.readEOF) })
	}
	return n, err
}

func (h *halfCloser) CloseWrite() error {
	close(h.ended)
	<-h.readEOF
	time.Sleep(300 * time.Millisecond) // Attach sees the server gone before this returns
	return nil
}

// The agent's input ends with every call answered and the editor's
// server closes because of it, seen before the end of input is done with:
// no failover, nothing said of a server gone, no headless session
// (attach.go's inputEnded).
func TestAClientThatEndsIsNoServerGone(t *testing.T) {
	a, b := net.Pipe()
	conn := &halfCloser{Conn: a, ended: make(chan struct{}), readEOF: make(chan struct{})}
	go func() { // the editor's server: takes the hello, answers each request, closes at the end of input
		go func() { <-conn.ended; b.Close() }()
		br := bufio.NewReader(b)
		if _, err := br.ReadBytes('\n'); err != nil {
			return
		}
		b.Write([]byte(`{"eukhe":"attached","session":"s1"}` + "\n"))
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 {
				b.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}` + "\n"))
			}
		}
	}()
	stdinR, stdinW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	type ended struct {
		code     int
		attached bool
		in       io.Reader
		note     string
	}
	done := make(chan ended, 1)
	go func() {
		code, attached, in, note := Attach(context.Background(), conn, "/proj", "", stdinR, outW, &stderr)
		outW.Close()
		done <- ended{code, attached, in, note}
	}()
	answers := bufio.NewReader(outR)
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.txt"}}}`,
	} {
		stdinW.Write([]byte(req + "\n"))
		if strings.Contains(req, `"id"`) {
			if _, err := answers.ReadBytes('\n'); err != nil {
				t.Fatalf("no answer to %s: %v", req, err)
			}
		}
	}
	stdinW.Close() // the client closes
	go io.Copy(io.Discard, answers)
	select {
	case e := <-done:
		if !e.attached || e.in != nil || e.note != "" || e.code != 0 {
			t.Errorf("Attach after the client closed: attached %v, a headless input %v, note %q, code %d (want the end, no failover)", e.attached, e.in != nil, e.note, e.code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Attach did not end after the client closed")
	}
	if s := stderr.String(); strings.Contains(s, "went away") || strings.Contains(s, "headless") {
		t.Errorf("a client that closed is said to be the editor's server going away:\n%s", s)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
