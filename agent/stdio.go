package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	fastjson "github.com/segmentio/encoding/json"
)

// DefaultMaxLine bounds one incoming JSON-RPC line.
const DefaultMaxLine = 64 << 20

// LineTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdio), as the SDK's StdioTransport, with one difference: a line that
// is not a JSON-RPC message — not JSON, not a message, a batch, over
// MaxLine — gets a JSON-RPC error response that says what was wrong, and
// the session stays up. (The SDK's transport ends the session on the first
// malformed line.)
type LineTransport struct {
	In      io.Reader
	Out     io.Writer
	MaxLine int // 0 is DefaultMaxLine
}

// Connect starts the connection. Lines are read in Read itself, on the
// SDK's reader goroutine: no goroutine of its own between the input and
// the SDK (one hand-off less on every call). Close closes In when it is
// an io.Closer, which ends a Read in progress on a pipe the runtime polls
// (eukhe mcp makes its stdin such a pipe).
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	c := &lineConn{out: t.Out, r: bufio.NewReaderSize(t.In, 64<<10), max: max, closed: make(chan struct{})}
	if cl, ok := t.In.(io.Closer); ok {
		c.in = cl
	}
	return c, nil
}

type lineConn struct {
	// pending are the calls read and not yet answered: at the end of the
	// input the connection ends only once they are (a piped script of
	// requests gets every answer).
	pmu     sync.Mutex
	pending map[jsonrpc.ID]bool
	drained chan struct{} // closed when pending empties at the end of input

	rmu  sync.Mutex // one Read at a time
	r    *bufio.Reader
	max  int
	rerr error // the input's end, given after the last message

	in     io.Closer
	out    io.Writer
	wmu    sync.Mutex
	closed chan struct{}
	once   sync.Once
}

func (c *lineConn) SessionID() string { return "" }

// Read is the next message; a bad line is answered here and skipped. At
// the end of the input it waits until every call read is answered.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for {
		select {
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		if c.rerr != nil {
			c.drain()
			return nil, c.rerr
		}
		line, long, err := readLine(c.r, c.max)
		if err != nil {
			c.rerr = err
		}
		if len(bytes.TrimSpace(line)) == 0 && !long {
			continue
		}
		msg, bad := DecodeLine(line, long, c.max)
		if bad != nil {
			_ = c.writeLine(bad)
			continue
		}
		if !c.track(msg) {
			r := msg.(*jsonrpc.Request)
			id, _ := json.Marshal(r.ID.Raw())
			_ = c.writeLine(errorLine(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("a request with id %s is still being answered; this one (%s) was not run. Give each request an id of its own", id, r.Method)))
			continue
		}
		return msg, nil
	}
}

func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		if plain, changed := plainWireError(r.Error); changed {
			cp := *r
			cp.Error = plain
			if b2, err2 := jsonrpc.EncodeMessage(&cp); err2 == nil {
				b = b2
			}
		}
	}
	err = c.writeLine(b)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.pmu.Lock()
		delete(c.pending, r.ID)
		if len(c.pending) == 0 && c.drained != nil {
			close(c.drained)
			c.drained = nil
		}
		c.pmu.Unlock()
	}
	return err
}

// track notes a call read from the input; false when a call with its id
// is still being answered (the second would lose its reply, or take the
// first one's).
func (c *lineConn) track(msg jsonrpc.Message) bool {
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
		c.pmu.Lock()
		defer c.pmu.Unlock()
		if c.pending == nil {
			c.pending = map[jsonrpc.ID]bool{}
		}
		if c.pending[r.ID] {
			return false
		}
		c.pending[r.ID] = true
	}
	return true
}

// drain waits until every call read is answered, or the connection closes.
func (c *lineConn) drain() {
	c.pmu.Lock()
	if len(c.pending) == 0 {
		c.pmu.Unlock()
		return
	}
	ch := make(chan struct{})
	c.drained = ch
	c.pmu.Unlock()
	select {
	case <-ch:
	case <-c.closed:
	}
}

func (c *lineConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.out.Write(append(b, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		if c.in != nil {
			_ = c.in.Close()
		}
	})
	return nil
}

// readLine reads up to a newline; a line longer than max is consumed
// whole and reported long, its bytes dropped.
func readLine(r *bufio.Reader, max int) (line []byte, long bool, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		if !long {
			if len(line)+len(frag) > max {
				long, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, long, err
	}
}

// DecodeLine is one line's message, or the error response it gets: a parse
// error (-32700) for text that is not JSON, an invalid request (-32600)
// for JSON that is not one JSON-RPC 2.0 message or a line over the limit.
// The response carries the request's id when it can be read.
func DecodeLine(line []byte, long bool, max int) (jsonrpc.Message, []byte) {
	if long {
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes; nothing of it was read. Send smaller arguments", max))
	}
	line = bytes.TrimSpace(line)
	// encoding/json's scan is the depth guard: it refuses a value nested
	// past 10,000 levels, where segmentio's decoder (the SDK's own, and
	// the probe's below) recurses without a bound and a line of four
	// million '[' overflowed the stack and ended the process (the
	// nineteenth red team's)
	if !json.Valid(line) {
		return nil, errorLine(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON; send one JSON-RPC 2.0 message a line")
	}
	if line[0] == '[' {
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, "batches are not supported (MCP removed them); send one JSON-RPC message a line")
	}
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	_ = fastjson.Unmarshal(line, &probe) // segmentio's: a tenth of a small read's time was encoding/json's probe
	if why := checkID(probe.ID); why != "" {
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, "invalid request: "+why)
	}
	msg, err := decodeMessage(line)
	if err != nil {
		return nil, errorLine(probe.ID, jsonrpc.CodeInvalidRequest, "invalid request: "+reason(err)+`; want {"jsonrpc":"2.0","id":…,"method":…,"params":{…}}`)
	}
	if probe.Method != nil && len(probe.ID) > 0 && string(probe.ID) != "null" {
		if why := checkParams(*probe.Method, probe.Params); why != "" {
			return nil, errorLine(probe.ID, jsonrpc.CodeInvalidParams, "invalid params: "+why)
		}
	}
	return msg, nil
}

func reason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

func errorLine(id json.RawMessage, code int64, msg string) []byte {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return b
}

// wireMsg is a JSON-RPC 2.0 message as sent.
type wireMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

// decodeMessage is jsonrpc.DecodeMessage with the standard decoder: the
// same messages, without the SDK's per-message decoder buffers (tens of
// KiB a call).
func decodeMessage(line []byte) (jsonrpc.Message, error) {
	var m wireMsg
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	if m.JSONRPC != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected \"2.0\"", m.JSONRPC)
	}
	id, err := jsonrpc.MakeID(m.ID)
	if err != nil {
		return nil, err
	}
	if m.Method != nil {
		return &jsonrpc.Request{ID: id, Method: *m.Method, Params: m.Params}, nil
	}
	if !id.IsValid() {
		return nil, fmt.Errorf("a message with neither a method nor an id")
	}
	r := &jsonrpc.Response{ID: id, Result: m.Result}
	if m.Error != nil {
		r.Error = m.Error
	}
	return r, nil
}
