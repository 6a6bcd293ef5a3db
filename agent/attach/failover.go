package attach

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	fastjson "github.com/segmentio/encoding/json"
)

// When the editor's server goes away (the editor closed or killed) while
// an agent is attached, the agent keeps its tools: each
// call in flight gets a clear error, and the session goes on headless —
// the same MCP session, now served by this process on the disk. The relay
// between the agent and the socket keeps what that needs: the agent's
// initialize request (replayed to the headless server, its answer
// dropped) and the ids of the calls the editor has not answered.

// failoverID is the id of the replayed initialize; its answer is dropped.
const failoverID = `"eukhe-failover"`

// goneText is what the agent is told, once per call in flight; when none
// was, the next tool result says quitNote instead (late.go).
const goneText = "the editor's eukhe server went away (the editor was closed or killed) while this call ran, so its result is unknown: " +
	"read the files again before editing them. The session goes on headless from here: reads and writes on the disk, " +
	"and a step that needs the user's approval is refused (no editor to ask)."

// relay carries the agent's lines to the editor's server and its answers
// back, keeping the calls in flight.
type relay struct {
	lines <-chan []byte // the agent's lines, in order; closed at the end of its input
	stop  chan struct{} // closed when the server is gone: toEditor takes no more lines

	mu       sync.Mutex
	init     []byte            // the agent's initialize request
	inflight map[string]string // id → method of the requests not answered
	held     []byte            // a line taken from lines and not delivered
}

// ReadLines reads the agent's lines into a channel, closed at the end.
func ReadLines(r io.Reader) <-chan []byte {
	ch := make(chan []byte, 16)
	go func() {
		defer close(ch)
		eachLine(r, func(line []byte) { ch <- line })
	}()
	return ch
}

// eachLine gives each of r's lines to f, in order, each ending in a
// newline (one is added to a last line without), until r ends or fails.
func eachLine(r io.Reader, f func(line []byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			f(line)
		}
		if err != nil {
			return
		}
	}
}

// peek is what the relay reads of a JSON-RPC line (zero when it is not
// JSON). Every line of the session passes here, a whole file's read
// among them: segmentio's decoder (the MCP SDK's own) skips the rest of a
// line several times faster than encoding/json.
func peek(line []byte) (message, error) {
	var m message
	if err := fastjson.Unmarshal(line, &m); err != nil {
		return message{}, err
	}
	return m, nil
}

// message is what the relay reads of a JSON-RPC line.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// toEditor copies the agent's lines to the server; it stops at the first
// failed write, holding that line for the headless session.
func (r *relay) toEditor(w io.Writer) error {
	for {
		var line []byte
		select {
		case l, ok := <-r.lines:
			if !ok {
				return nil
			}
			line = l
		case <-r.stop:
			return io.ErrClosedPipe
		}
		if m, err := peek(line); err == nil && m.Method != "" && len(m.ID) > 0 {
			r.mu.Lock()
			if opensSession(m.Method) {
				r.init = bytes.Clone(line)
			}
			r.inflight[string(m.ID)] = m.Method
			r.mu.Unlock()
		}
		if _, err := w.Write(line); err != nil {
			r.mu.Lock()
			r.held = line
			r.mu.Unlock()
			return err
		}
	}
}

// answered notes an answer from the server.
func (r *relay) answered(line []byte) {
	if m, err := peek(line); err == nil && m.Method == "" && len(m.ID) > 0 {
		r.mu.Lock()
		delete(r.inflight, string(m.ID))
		r.mu.Unlock()
	}
}

// failover answers every call in flight with goneText, and gives the
// headless session's input: the agent's initialize again (under
// failoverID; the late switch drops its answer), then every line not
// delivered. When no call was in flight, note is what the next tool
// result says (quitNote): a notification alone is easily missed, and the
// next read would quietly serve the disk.
func (r *relay) failover(out io.Writer) (in io.Reader, note string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	tell := goneAnswers(r.inflight)
	if len(tell) == 0 {
		note = quitNote
	}
	out.Write(tell)
	var pre bytes.Buffer
	if _, initPending := r.inflight[idOf(r.init)]; r.init != nil && !initPending {
		pre.Write(replayedInit(r.init))
	} else if r.init != nil {
		pre.Write(r.init) // the editor never answered it: the headless session does
	}
	pre.Write(r.held)
	return io.MultiReader(&pre, &chanReader{lines: r.lines}), note
}

// goneAnswers answers each request in flight (id → method) with
// goneText, but an initialize (replayed to the headless session, which
// answers it).
func goneAnswers(inflight map[string]string) []byte {
	var tell bytes.Buffer
	for id, method := range inflight {
		if opensSession(method) {
			continue
		}
		var msg any = map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id),
			"error": map[string]any{"code": -32603, "message": goneText}}
		if method == "tools/call" {
			msg = map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "result": map[string]any{
				"content": []any{map[string]any{"type": "text", "text": goneText}}, "isError": true}}
		}
		b, _ := json.Marshal(msg)
		tell.Write(append(b, '\n'))
	}
	return tell.Bytes()
}

func idOf(line []byte) string {
	m, _ := peek(line)
	return string(m.ID)
}

// chanReader reads lines from a channel.
type chanReader struct {
	lines <-chan []byte
	rest  []byte
}

func (c *chanReader) Read(p []byte) (int, error) {
	for len(c.rest) == 0 {
		line, ok := <-c.lines
		if !ok {
			return 0, io.EOF
		}
		c.rest = line
	}
	n := copy(p, c.rest)
	c.rest = c.rest[n:]
	return n, nil
}

// headlessNote is said once on standard error when the session fails over.
func headlessNote(root string) string {
	return fmt.Sprintf("the editor's server for %s went away; the session goes on headless on the disk", root)
}
