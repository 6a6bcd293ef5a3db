package approvals

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// Finder finds what a terminal answers for a root: the editor's eukhe
// server that serves it, and the headless sessions whose root holds it
// (skip: sockets dialled already). cmd gives the discovery directory's.
type Finder interface {
	Editor(root string) (net.Conn, protocol.DiscoveryEntry, error)
	Sessions(root string, skip map[string]bool) ([]Endpoint, error)
}

// Endpoint is a headless session's approvals endpoint, dialled.
type Endpoint struct {
	Conn  net.Conn
	Entry protocol.DiscoveryEntry
}

// Options are one terminal's: where it writes, whether it is a gateway,
// the root it answers for and how it finds its sources.
type Options struct {
	Out     io.Writer
	Gateway bool
	Root    string
	Find    Finder
}

// Answer is `eukhe approvals`: it attaches to every source of the root
// (the editor's server, headless sessions; those that start later join,
// polled each second) and answers their questions from stdin until ctx
// ends or stdin does. A failure to look for the sessions at the start is
// its error.
func Answer(ctx context.Context, o Options, stdin io.Reader) error {
	a := &answering{out: o.Out, gateway: o.Gateway, find: o.Find, msgs: make(chan sourced), known: map[string]bool{}, root: o.Root, stay: true}
	a.findEditor(ctx, o.Root)
	if err := a.scan(ctx, o.Root); err != nil {
		return err
	}
	if len(a.srcs) == 0 {
		a.waiting()
	}
	if o.Gateway {
		fmt.Fprintln(o.Out, "As a gateway: no question is shown here. Ctrl-C detaches.")
	} else {
		fmt.Fprintln(o.Out, "Questions appear here; Ctrl-C detaches.")
	}
	go func() {
		// Headless sessions that start later join.
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				a.findEditor(ctx, o.Root)
				a.scan(ctx, o.Root)
			}
		}
	}()
	a.run(ctx, stdin)
	return nil
}

// answering is one `eukhe approvals`: its sources (the editor's server,
// headless sessions) and their questions.
type answering struct {
	out     io.Writer
	gateway bool
	find    Finder
	msgs    chan sourced
	root    string
	// stay: when the last source goes away, wait for the next one
	// (eukhe approvals) rather than end.
	stay bool

	mu    sync.Mutex
	srcs  []*source
	known map[string]bool // sockets dialled
}

// source is one server or session this terminal is attached to.
type source struct {
	name   string
	editor bool // the editor's eukhe server (not a headless session)
	conn   net.Conn
	wmu    sync.Mutex
}

// findEditor attaches to the editor's eukhe server for root, when one
// serves it and it is not attached yet (an editor opened after this
// terminal is picked up).
func (a *answering) findEditor(ctx context.Context, root string) {
	a.mu.Lock()
	for _, s := range a.srcs {
		if s.editor {
			a.mu.Unlock()
			return // attached to it already: no dial every second
		}
	}
	a.mu.Unlock()
	conn, entry, err := a.find.Editor(root)
	if err != nil {
		return
	}
	a.mu.Lock()
	known := a.known[entry.Socket]
	a.mu.Unlock()
	if known {
		conn.Close()
		return
	}
	editor := entry.Editor
	if editor == "" {
		editor = "the editor"
	}
	a.add(ctx, conn, fmt.Sprintf("%s's eukhe server (pid %d)", editor, entry.PID), entry.Socket, false)
}

// waiting says that no session serves the root yet, and that this
// terminal waits for one.
func (a *answering) waiting() {
	fmt.Fprintf(a.out, "No editor's eukhe server and no eukhe mcp session serves %s yet; waiting for one (Ctrl-C stops).\n", gate.Visible(a.root))
}

// sourced is one line from a source; a nil msg says the source went away.
type sourced struct {
	src *source
	msg *protocol.TerminalLine
}

// add attaches to one source: the hello (and, from a headless session,
// its answer: the terminal is counted once it comes), then its lines into
// a.msgs.
func (a *answering) add(ctx context.Context, conn net.Conn, name, socket string, ack bool) {
	hello, _ := json.Marshal(protocol.Hello{Eukhe: protocol.HelloApprovals, Gateway: a.gateway})
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	_, err := conn.Write(append(hello, '\n'))
	if err == nil && ack {
		var r protocol.HelloAnswer
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		if !sc.Scan() || json.Unmarshal(sc.Bytes(), &r) != nil || r.Eukhe != protocol.HelloAttached {
			err = fmt.Errorf("no answer to the hello %s", r.Error)
		}
		conn.SetReadDeadline(time.Time{})
	}
	if err != nil {
		a.mu.Lock()
		a.known[socket] = true // not again
		a.mu.Unlock()
		conn.Close()
		return
	}
	a.follow(ctx, conn, sc, name, socket, !ack)
}

// follow counts an attached source and sends its lines into a.msgs, then
// a nil msg when it goes away.
func (a *answering) follow(ctx context.Context, conn net.Conn, sc *bufio.Scanner, name, socket string, editor bool) {
	src := &source{name: name, conn: conn, editor: editor}
	a.mu.Lock()
	a.srcs = append(a.srcs, src)
	a.known[socket] = true
	a.mu.Unlock()
	fmt.Fprintf(a.out, "Attached to %s.\n", name)
	go func() { <-ctx.Done(); conn.Close() }()
	go func() {
		for sc.Scan() {
			var m protocol.TerminalLine
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				select {
				case a.msgs <- sourced{src, &m}:
				case <-ctx.Done():
					return
				}
			}
		}
		select {
		case a.msgs <- sourced{src, nil}:
		case <-ctx.Done():
		}
	}()
}

// scan attaches to the headless sessions of root not attached yet.
func (a *answering) scan(ctx context.Context, root string) error {
	a.mu.Lock()
	skip := map[string]bool{}
	for k := range a.known {
		skip[k] = true
	}
	a.mu.Unlock()
	eps, err := a.find.Sessions(root, skip)
	for _, ep := range eps {
		name := "headless eukhe mcp session " + gate.Visible(ep.Entry.Session)
		if ep.Entry.Parent != "" {
			name += " (subagent of " + gate.Visible(ep.Entry.Parent) + ")"
		}
		name += fmt.Sprintf(" on %s (pid %d)", gate.Visible(strings.Join(ep.Entry.Roots, ", ")), ep.Entry.PID)
		a.add(ctx, ep.Conn, name, ep.Entry.Socket, true)
	}
	return err
}

// run shows the questions one at a time, oldest first, and sends each
// y / N to the source that asked; a question settled elsewhere is dropped.
// What to show and what a line answers is the desk's (desk.go); run reads,
// writes and sends.
func (a *answering) run(ctx context.Context, stdin io.Reader) int {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	if a.gateway {
		lines = nil
	}
	var d desk
	for {
		select {
		case <-ctx.Done():
			return 0
		case m := <-a.msgs:
			if m.msg != nil {
				a.say(d.message(m.src, *m.msg))
				continue
			}
			a.say(d.gone(m.src))
			if a.left(m.src) == 0 {
				if !a.stay {
					return 0
				}
				a.waiting() // the next session to start is picked up
			}
		case line, ok := <-lines:
			if !ok {
				return 0 // end of input: detach; pending questions go to the other clients
			}
			p, answer, out := d.line(line)
			a.say(out)
			if p == nil {
				continue
			}
			b, _ := json.Marshal(protocol.TerminalAnswer{ID: p.q.ID, Answer: answer})
			p.src.wmu.Lock()
			_, err := p.src.conn.Write(append(b, '\n'))
			p.src.wmu.Unlock()
			if err != nil {
				fmt.Fprintf(a.out, "%s went away.\n", p.src.name)
			} else {
				fmt.Fprintf(a.out, "%s.\n", map[string]string{protocol.AnswerApprove: "Allowed", protocol.AnswerDeny: "Denied"}[answer])
			}
			a.say(d.show())
		}
	}
}

// say writes s when there is anything to write.
func (a *answering) say(s string) {
	if s != "" {
		fmt.Fprint(a.out, s)
	}
}

// left forgets a source that went away: how many are left.
func (a *answering) left(src *source) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, s := range a.srcs {
		if s == src {
			a.srcs = append(a.srcs[:i], a.srcs[i+1:]...)
			break
		}
	}
	return len(a.srcs)
}

// questionPrompt is one question as the terminal shows it: what would
// run and its effects first, then who asks and where (each one line as
// gate.Visible shows it), then the step, every line indented.
func questionPrompt(q protocol.ApproveParams) string {
	var b strings.Builder
	what := "Allow an access"
	if q.Step > 0 {
		what = fmt.Sprintf("Run step %d", q.Step)
	} else if q.Cell {
		what = "Run an ipython cell"
	}
	who := "the agent"
	if q.Agent != "" {
		who = "subagent " + gate.Visible(q.Agent)
	}
	fmt.Fprintf(&b, "\n%s (%s)? Asked by %s (session %s)", what, strings.Join(q.Effects, "+"), who, gate.Visible(q.Session))
	if q.Cwd != "" {
		fmt.Fprintf(&b, " in %s", gate.Visible(q.Cwd))
	}
	b.WriteString(":\n")
	for _, l := range strings.Split(gate.VisibleText(q.Text), "\n") {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	if due, err := time.Parse(time.RFC3339Nano, q.Deadline); err == nil {
		fmt.Fprintf(&b, "Unanswered by %s, it is denied.\n", due.Local().Format("15:04:05"))
	}
	b.WriteString("Allow? [y/N] ")
	return b.String()
}
