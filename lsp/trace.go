package lsp

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// traceStream writes every message of a stream to a trace, one line each:
// the time, "<-" for what the editor sent and "->" for what the server
// sent, and the message as it went on the wire (Options.Trace).
type traceStream struct {
	jsonrpc2.Stream
	mu sync.Mutex
	w  io.Writer
}

func (s *traceStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := s.Stream.Read(ctx)
	if err == nil {
		s.log("<-", msg)
	}
	return msg, n, err
}

func (s *traceStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.log("->", msg)
	return s.Stream.Write(ctx, msg)
}

func (s *traceStream) log(dir string, msg jsonrpc2.Message) {
	b, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		b = []byte(fmt.Sprintf("(not encodable: %v)", err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, "%s %s %s\n", time.Now().Format("15:04:05.000"), dir, b)
}
