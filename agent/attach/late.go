package attach

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// A headless session looks for the editor again (so that the agent reads
// the user's unsaved buffers as soon as there are any to read): an
// agent started before the editor's server was up, or one whose editor
// went away and came back, attaches at its next tool call. The switch
// sits between the agent's lines and the headless session: at each
// tools/call while no editor is attached it looks in the discovery
// directory (a glob and a few small files: tens of µs), and when an editor
// serves the root it says hello, replays the agent's initialize (its
// answer dropped) and relays every later line to the editor, as attach
// does. When that editor goes away, the calls in flight are answered with
// goneText and the lines go to the headless session again, which never
// stopped. Each change is said once, in the next tool result (withNote).

// attachedNote is said in the first result the editor serves.
func attachedNote(root string) string {
	return "eukhe: the editor's eukhe server for " + root + " is up now, and this session is attached to it from this call on: " +
		"reads come from the editor's buffers (unsaved changes included), edits land there, and questions go to the editor."
}

// quitNote is said in the first result after the editor went away when no
// call was running then (a call in flight is told goneText instead).
const quitNote = "eukhe: the editor quit (its eukhe server went away), so this session goes on headless: reads now come from the disk, " +
	"not the editor's unsaved buffers, and a step that needs the user's approval is asked without the editor (or refused)."

// lineOut writes whole lines to the agent, one writer at a time.
type lineOut struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *lineOut) line(b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w.Write(b)
}

// lateSwitch routes the agent's lines to the headless session or to an
// editor attached later.
type lateSwitch struct {
	root, parent string
	find         func(root string) (io.ReadWriteCloser, bool)
	out          *lineOut
	stderr       io.Writer
	stdin        io.Reader
	in           *bufio.Reader // stdin's lines

	mu        sync.Mutex
	init      []byte             // the initialize the headless session got
	conn      io.ReadWriteCloser // the editor attached, or nil
	inflight  map[string]string  // id → method of the agent's requests the editor has not answered
	asked     map[string]bool    // the editor's requests to the agent not answered
	toolCalls map[string]bool    // the ids of the tools/calls in flight on either side
	note      string             // said once, in the next tool result
	ended     chan struct{}      // closed when the attached editor's answers end
	closing   bool               // the agent's input ended: the editor's end is no news
}

// NewLateSwitch routes the agent's lines (stdin) as the headless session
// reads them; it gives the headless session's input and output. find
// looks for the editor's server that serves root (the discovery
// directory's, injected by cmd). note, when not empty, is said in the
// first tool result.
func NewLateSwitch(root, parent string, find func(root string) (io.ReadWriteCloser, bool), stdin io.Reader, stdout io.Writer, stderr io.Writer, note string) (io.Reader, io.Writer) {
	s := &lateSwitch{root: root, parent: parent, find: find, out: &lineOut{w: stdout}, stderr: stderr,
		stdin: stdin, in: bufio.NewReaderSize(stdin, 64<<10), toolCalls: map[string]bool{}, note: note}
	return &headlessIn{s: s}, &lineSplitter{emit: s.fromHeadless}
}

// headlessIn is the headless session's input: its reads read the agent's
// lines and route them as they come (no goroutine between the agent and
// the session: each hop is a wake-up on a small call's path). A line for
// an attached editor is sent there and the read goes on to the next; at
// the end of the agent's input it waits for an attached editor's last
// answers, then ends.
type headlessIn struct {
	s    *lateSwitch
	part []byte // what is left of the line being read
	done bool
}

func (h *headlessIn) Read(p []byte) (int, error) {
	for len(h.part) == 0 {
		if h.done {
			return 0, io.EOF
		}
		line, ok := h.s.next()
		if !ok {
			h.done = true
			h.s.end()
			continue
		}
		if h.s.routeLine(line) {
			h.part = line
		}
	}
	n := copy(p, h.part)
	h.part = h.part[n:]
	return n, nil
}

// Close closes the agent's input when it can be (the session ends: a read
// in progress on a pipe the runtime polls then ends).
func (h *headlessIn) Close() error {
	if c, ok := h.s.stdin.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// next is the agent's next line, ending in a newline; false at the end
// of its input.
func (s *lateSwitch) next() ([]byte, bool) {
	line, err := s.in.ReadBytes('\n')
	if len(line) == 0 {
		return nil, false
	}
	if err != nil && line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	return line, true
}

// end is the end of the agent's input: an attached editor's last answers
// are waited for.
func (s *lateSwitch) end() {
	s.mu.Lock()
	conn, ended := s.conn, s.ended
	s.closing = true
	s.mu.Unlock()
	if conn != nil {
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
			<-ended
		}
	}
}

// routeLine sends one of the agent's lines to the editor attached, or
// says (true) that it is the headless session's.
func (s *lateSwitch) routeLine(line []byte) bool {
	m, _ := peek(line)
	s.mu.Lock()
	if m.Method == "tools/call" && len(m.ID) > 0 {
		s.toolCalls[string(m.ID)] = true
	}
	if opensSession(m.Method) && s.conn == nil {
		s.init = bytes.Clone(line)
	}
	s.mu.Unlock()
	if m.Method == "tools/call" {
		s.look()
	}
	return !s.toEditor(line, m)
}

// look attaches to an editor that serves the root, when none is attached.
func (s *lateSwitch) look() {
	s.mu.Lock()
	init := s.init
	attached := s.conn != nil
	s.mu.Unlock()
	if attached || init == nil {
		return
	}
	conn, ok := s.find(s.root)
	if !ok {
		return
	}
	// A server that takes the connection but never answers the hello
	// must not stop the agent's calls for long.
	if nc, ok := conn.(net.Conn); ok {
		nc.SetDeadline(time.Now().Add(5 * time.Second))
		defer nc.SetDeadline(time.Time{})
	}
	br, session, err := sayHello(conn, s.root, s.parent)
	if err == nil {
		_, err = conn.Write(replayedInit(init))
	}
	if err != nil {
		conn.Close()
		fmt.Fprintf(s.stderr, "eukhe mcp: the editor's server did not take the session (%v); staying headless\n", err)
		return
	}
	fmt.Fprintf(s.stderr, "eukhe mcp: session %s attached to the editor's server for %s (it was not up when this session started)\n", session, s.root)
	s.mu.Lock()
	s.conn, s.ended = conn, make(chan struct{})
	s.inflight, s.asked = map[string]string{}, map[string]bool{}
	s.note = attachedNote(s.root)
	s.mu.Unlock()
	go s.fromEditor(conn, br)
}

// toEditor sends a line to the attached editor; false: it goes to the
// headless session. An answer goes where its request came from.
func (s *lateSwitch) toEditor(line []byte, m message) bool {
	s.mu.Lock()
	conn := s.conn
	id := string(m.ID)
	switch {
	case conn == nil:
		s.mu.Unlock()
		return false
	case m.Method == "" && !s.asked[id]:
		s.mu.Unlock()
		return false
	case m.Method == "":
		delete(s.asked, id)
	case len(m.ID) > 0:
		s.inflight[id] = m.Method
	}
	s.mu.Unlock()
	if _, err := conn.Write(line); err == nil {
		return true
	}
	// The editor went away under this line. A request fromEditor's end has
	// not answered yet goes to the headless session; one it answered
	// (goneText), an answer or a notification for the gone editor go
	// nowhere.
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.inflight[id]; ok && len(m.ID) > 0 && m.Method != "" && s.conn == conn {
		delete(s.inflight, id)
		return false
	}
	return true
}

// fromEditor copies the attached editor's lines to the agent; at their
// end the calls in flight are answered with goneText and the session is
// headless again.
func (s *lateSwitch) fromEditor(conn io.ReadWriteCloser, br *bufio.Reader) {
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			s.fromEditorLine(line)
		}
		if err != nil {
			break
		}
	}
	conn.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ended)
	s.conn = nil
	tell := goneAnswers(s.inflight)
	for id := range s.inflight {
		delete(s.toolCalls, id)
	}
	s.inflight = nil
	s.out.line(tell)
	if s.closing {
		return
	}
	s.note = ""
	if len(tell) == 0 {
		s.note = quitNote
	}
	fmt.Fprintf(s.stderr, "eukhe mcp: %s\n", headlessNote(s.root))
}

func (s *lateSwitch) fromEditorLine(line []byte) {
	m, _ := peek(line)
	id := string(m.ID)
	if id == failoverID && m.Method == "" {
		return // the answer to the replayed initialize
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case m.Method != "" && len(m.ID) > 0:
		s.asked[id] = true
	case m.Method == "" && len(m.ID) > 0:
		delete(s.inflight, id)
		line = s.noted(line, id)
	}
	s.out.line(line)
}

// fromHeadless writes one of the headless session's lines to the agent.
func (s *lateSwitch) fromHeadless(line []byte) {
	m, _ := peek(line)
	if string(m.ID) == failoverID && m.Method == "" {
		return // the answer to the initialize replayed at a failover
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.Method == "" && len(m.ID) > 0 {
		line = s.noted(line, string(m.ID))
	}
	s.out.line(line)
}

// noted is an answer with the pending note when it answers a tools/call.
// Callers hold mu.
func (s *lateSwitch) noted(line []byte, id string) []byte {
	if !s.toolCalls[id] {
		return line
	}
	delete(s.toolCalls, id)
	if s.note == "" {
		return line
	}
	if b, ok := withNote(line, s.note); ok {
		s.note = ""
		return b
	}
	return line
}

// withNote puts note before the text of a tools/call result (or of an
// error's message).
func withNote(line []byte, note string) ([]byte, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return nil, false
	}
	if raw, ok := m["result"]; ok {
		var res map[string]json.RawMessage
		if json.Unmarshal(raw, &res) != nil {
			return nil, false
		}
		var content []map[string]any
		json.Unmarshal(res["content"], &content)
		if len(content) > 0 && content[0]["type"] == "text" {
			text, _ := content[0]["text"].(string)
			content[0]["text"] = note + "\n\n" + text
		} else {
			content = append([]map[string]any{{"type": "text", "text": note}}, content...)
		}
		res["content"], _ = json.Marshal(content)
		m["result"], _ = json.Marshal(res)
	} else if raw, ok := m["error"]; ok {
		var e map[string]any
		if json.Unmarshal(raw, &e) != nil {
			return nil, false
		}
		msg, _ := e["message"].(string)
		e["message"] = note + "\n\n" + msg
		m["error"], _ = json.Marshal(e)
	} else {
		return nil, false
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, false
	}
	return append(b, '\n'), true
}

// replayedInit is the agent's initialize under failoverID, then
// notifications/initialized.
func replayedInit(init []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(init, &m) != nil {
		return nil
	}
	m["id"] = json.RawMessage(failoverID)
	b, _ := json.Marshal(m)
	b = append(b, '\n')
	var method string
	json.Unmarshal(m["method"], &method)
	if method == "initialize" {
		b = append(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"...)
	}
	return b
}

// opensSession reports whether an agent's request is the one that opens
// its MCP session and says its version: initialize, or server/discover
// (MCP 2026-07-28, which has no initialize: the official SDK's clients
// send it first). Attaching later, or falling back to headless, replays
// it (its answer dropped). Keyed on initialize alone, a 2026-07-28 client
// was never attached to an editor that came up after it (found by the
// Helix test).
func opensSession(method string) bool { return method == "initialize" || method == "server/discover" }

// lineSplitter hands each whole line written to it to emit.
type lineSplitter struct {
	mu   sync.Mutex
	part []byte
	emit func([]byte)
}

func (l *lineSplitter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.emit(bytes.Clone(l.part[:i+1]))
		l.part = l.part[i+1:]
	}
}
