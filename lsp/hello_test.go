package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/protocol"
)

// helloAnswer sends one hello line to the server's socket handler and
// reads the line that answers it.
func helloAnswer(t *testing.T, e *fakeEditor, line string) protocol.HelloAnswer {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.srv.ServeConn(ctx, a); close(done) }()
	defer func() { cancel(); b.Close(); <-done }()
	go b.Write([]byte(line + "\n"))
	got, err := bufio.NewReader(b).ReadBytes('\n')
	if err != nil {
		t.Fatalf("no answer to %s: %v", line, err)
	}
	var ans protocol.HelloAnswer
	dec := json.NewDecoder(strings.NewReader(string(got)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		t.Fatalf("the answer to %s is not a HelloAnswer: %q: %v", line, got, err)
	}
	return ans
}

// Every answer to a hello is one JSON line of protocol.HelloAnswer, also
// when the message carries characters Go's quoting would spell \x01.
func TestHelloAnswersAreJSONEvenWithControlCharacters(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.sync()
	if a := helloAnswer(t, e, `{"eukhe":"attach","root":`+jsonString(e.root)+`}`); a.Eukhe != protocol.HelloAttached || a.Session == "" || a.Error != "" {
		t.Errorf("attach: %+v", a)
	}
	for _, c := range []struct{ line, want string }{
		{`{"eukhe":"attach","root":"/elsewhere/\u0001\u001b[2J"}`, "\x01\x1b[2J"},
		{`{"eukhe":"attach","root":"rel\u0001"}`, "not absolute"},
		{`{"eukhe":"sing\u0001"}`, "unknown hello"},
		{`not json`, "must be a hello object"},
	} {
		a := helloAnswer(t, e, c.line)
		if a.Eukhe != "" || !strings.Contains(a.Error, c.want) {
			t.Errorf("%s: answered %+v; want an error containing %q", c.line, a, c.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
