package agent

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestBadLinesGetAnErrorAndTheSessionStaysUp(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.initialize()
	for _, c := range []struct {
		line string
		code string
		want string
	}{
		{`{"jsonrpc":"2.0","id":7,"method":`, "-32700", "not JSON"},
		{`garbage`, "-32700", "not JSON"},
		{`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, "-32600", "batches are not supported"},
		{`{"id":9,"method":"ping"}`, "-32600", "invalid request"},
		{`42`, "-32600", "invalid request"},
	} {
		r.send(c.line)
		m := r.recv()
		if code := fmt.Sprint(path(m, "error", "code")); code != c.code {
			t.Errorf("%s: code %s, want %s", c.line, code, c.code)
		}
		if msg, _ := path(m, "error", "message").(string); !strings.Contains(msg, c.want) {
			t.Errorf("%s: message %q, want %q", c.line, msg, c.want)
		}
	}
	if id := fmt.Sprint(path(r.rpc(10, "ping", ""), "id")); id != "10" {
		t.Fatalf("after bad lines, ping answered id %s", id)
	}
	// wrong params for a known method: a JSON-RPC error, still up
	m := r.rpc(11, "tools/call", `"read"`)
	if path(m, "error") == nil {
		t.Fatalf("tools/call with string params: %v", m)
	}
	m = r.rpc(12, "nosuch/method", "")
	if fmt.Sprint(path(m, "error", "code")) != "-32601" {
		t.Fatalf("unknown method: %v", m)
	}
	m = r.rpc(13, "tools/call", `{"name":"read","arguments":{"path":"."}}`)
	if path(m, "result", "isError") == true {
		t.Fatalf("read after bad input: %v", m)
	}
}

func TestALineOverTheLimitIsRefusedWhole(t *testing.T) {
	msg, bad := DecodeLine(nil, true, 100)
	if msg != nil || !bytes.Contains(bad, []byte("message over 100 bytes")) {
		t.Fatalf("%v %s", msg, bad)
	}
	// a long line through the transport, then a good one
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 500) + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	var out bytes.Buffer
	conn, _ := (&LineTransport{In: in, Out: &out, MaxLine: 200}).Connect(context.Background())
	got, err := conn.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if req, ok := got.(*jsonrpc.Request); !ok || fmt.Sprint(req.ID.Raw()) != "2" {
		t.Fatalf("read %#v", got)
	}
	if !strings.Contains(out.String(), "message over 200 bytes") {
		t.Fatalf("wrote %q", out.String())
	}
}

// At the end of input every call read is answered before the session ends
// (a script piped to eukhe mcp gets all its answers).
func TestEndOfInputAnswersEveryCall(t *testing.T) {
	w := newWorld(t)
	w.put("a.txt", "hello\n")
	var lines []string
	lines = append(lines, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.txt"}}}`, i))
	}
	var out syncBuffer
	err := Serve(context.Background(), &LineTransport{In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Out: &out}, Options{Host: w.host})
	if err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "1:hello"); n != 20 {
		t.Fatalf("%d of 20 reads answered:\n%s", n, out.String())
	}
}

// The wire's errors are in the client's terms: an id that is not a string
// or a whole number, params that are not an object or whose field has the
// wrong type; never the Go decoder's words.
func TestWireErrorsSayWhatToSend(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.initialize()
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "the id must be a string or a whole number, not an object"},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "the id must be a string or a whole number, not true or false"},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "the id 1.5 is not a whole number"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"read"}`, "the params of tools/call must be an object, not a string"},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":[1]}`, "the params of tools/list must be an object, not an array"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}`, `invalid params for tools/call: "name" must be a string, not a number`},
		{`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":5}}`, `invalid params for initialize: "protocolVersion" must be a string, not a number`},
	} {
		r.send(c.line)
		m := r.recv()
		msg, _ := path(m, "error", "message").(string)
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "interface {}") {
			t.Errorf("%s: %q, want %q", c.line, msg, c.want)
		}
	}
	if id := fmt.Sprint(path(r.rpc(10, "ping", ""), "id")); id != "10" {
		t.Fatalf("after bad lines, ping answered id %s", id)
	}
}

// Two requests with one id: the second is refused at once, saying so, and
// the first still gets its own reply.
func TestASecondRequestWithALiveIDIsRefused(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.initialize()
	w.put("a.txt", "one\n")
	r.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"glob","arguments":{"pattern":"**"}}}`)
	r.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.txt"}}}`)
	var refused, answered bool
	for i := 0; i < 2; i++ {
		m := r.recv()
		if msg, _ := path(m, "error", "message").(string); strings.Contains(msg, "still being answered") {
			refused = true
		} else if path(m, "result") != nil {
			answered = true
		}
	}
	// One of two outcomes is honest: the first had been answered before
	// the second was read (both answered), or the second was refused.
	if !answered {
		t.Fatalf("the first request got no reply (refused %v)", refused)
	}
	if id := fmt.Sprint(path(r.rpc(10, "ping", ""), "id")); id != "10" {
		t.Fatalf("ping answered id %s", id)
	}
}
