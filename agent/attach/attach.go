package attach

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/eukhe/eukhe/protocol"
)

// Attach pipes this process's stdio to the editor's server. At the end of
// standard input the socket's write side is closed and the server's last
// answers are still copied out. When the server goes away first, in is
// the headless session's input (failover.go): the calls in flight were
// answered with an error saying so; when none was, note is for the next
// tool result.
func Attach(ctx context.Context, conn io.ReadWriteCloser, root, parent string, stdin io.Reader, stdout, stderr io.Writer) (code int, attached bool, in io.Reader, note string) {
	defer conn.Close()
	br, session, err := sayHello(conn, root, parent)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe mcp: the editor's server did not take the session (%v); running headless\n", err)
		return 0, false, nil, ""
	}
	fmt.Fprintf(stderr, "eukhe mcp: session %s attached to the editor's server for %s\n", session, root)
	r := &relay{lines: ReadLines(stdin), stop: make(chan struct{}), inflight: map[string]string{}}
	inputDone := make(chan struct{})
	inputEnded := make(chan struct{}) // the agent's input ended (before the socket's write side closes)
	go func() {
		defer close(inputDone)
		if r.toEditor(conn) != nil {
			return
		}
		close(inputEnded)
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
			return
		}
		conn.Close()
	}()
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				r.answered(line)
				stdout.Write(line)
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-gone:
	case <-ctx.Done():
		return 0, true, nil, ""
	}
	select {
	case <-inputEnded:
		// The agent ended first, and the server closed because of it:
		// no failover, whatever the order the two were seen in.
		<-inputDone
	default:
	}
	select {
	case <-inputDone:
		r.mu.Lock()
		clean := len(r.inflight) == 0 && r.held == nil
		r.mu.Unlock()
		if clean {
			return 0, true, nil, "" // the agent's input ended, every call answered
		}
	default:
	}
	close(r.stop)
	conn.Close() // ends a write to the dead server
	<-inputDone  // no line is taken for the server from here
	fmt.Fprintf(stderr, "eukhe mcp: %s\n", headlessNote(root))
	in, note = r.failover(stdout)
	return 0, true, in, note
}

// sayHello asks the editor's server to take a session on root: it gives
// the connection's reader and the session's id.
func sayHello(conn io.ReadWriter, root, parent string) (*bufio.Reader, string, error) {
	hello, _ := json.Marshal(protocol.Hello{Eukhe: protocol.HelloAttach, Root: root, Parent: parent})
	var ack protocol.HelloAnswer
	br := bufio.NewReader(conn)
	_, err := conn.Write(append(hello, '\n'))
	if err == nil {
		var line []byte
		if line, err = br.ReadBytes('\n'); err == nil {
			err = json.Unmarshal(line, &ack)
		}
	}
	if err == nil && ack.Eukhe != protocol.HelloAttached {
		err = fmt.Errorf("%s", ack.Error)
	}
	return br, ack.Session, err
}
