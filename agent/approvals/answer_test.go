package approvals

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/protocol"
)

// answerQuestions is one terminal attached to one server end (its hello
// already answered).
func answerQuestions(conn net.Conn, stdin io.Reader, stdout io.Writer) int {
	a := &answering{out: stdout, msgs: make(chan sourced), known: map[string]bool{}}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	a.follow(context.Background(), conn, sc, "The editor's eukhe server", "test", true)
	return a.run(context.Background(), stdin)
}

// termRig runs answerQuestions against a fake server end and a typed
// stdin.
type termRig struct {
	t       *testing.T
	server  net.Conn
	answers chan protocol.TerminalAnswer
	keys    *io.PipeWriter
	screen  chan string
}

func newTermRig(t *testing.T) *termRig {
	srv, cli := net.Pipe()
	keysR, keysW := io.Pipe()
	outR, outW := io.Pipe()
	r := &termRig{t: t, server: srv, answers: make(chan protocol.TerminalAnswer, 16), keys: keysW, screen: make(chan string, 64)}
	done := make(chan struct{})
	go func() { answerQuestions(cli, keysR, outW); outW.Close(); close(done) }()
	go func() {
		br := bufio.NewReader(srv)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			var a protocol.TerminalAnswer
			json.Unmarshal(line, &a)
			r.answers <- a
		}
	}()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := outR.Read(buf)
			if n > 0 {
				r.screen <- string(buf[:n])
			}
			if err != nil {
				close(r.screen)
				return
			}
		}
	}()
	t.Cleanup(func() { keysW.Close(); srv.Close(); <-done })
	return r
}

func (r *termRig) send(method string, params any) {
	b, _ := json.Marshal(map[string]any{"method": method, "params": params})
	if _, err := r.server.Write(append(b, '\n')); err != nil {
		r.t.Fatal(err)
	}
}

func (r *termRig) ask(id, text string) {
	r.send(protocol.MethodApprove, protocol.ApproveParams{ID: id, Session: "s", Text: text, Effects: []string{"write"}, Step: 1,
		Offers: []string{protocol.AnswerDeny, protocol.AnswerApprove}})
}

// see waits until the screen shows want.
func (r *termRig) see(want string) {
	r.t.Helper()
	all := ""
	for !strings.Contains(all, want) {
		select {
		case s, ok := <-r.screen:
			if !ok {
				r.t.Fatalf("the terminal ended before %q:\n%s", want, all)
			}
			all += s
		case <-time.After(60 * time.Second):
			r.t.Fatalf("no %q on the screen:\n%s", want, all)
		}
	}
}

func (r *termRig) answer() protocol.TerminalAnswer {
	r.t.Helper()
	select {
	case a := <-r.answers:
		return a
	case <-time.After(60 * time.Second):
		r.t.Fatal("the terminal sent no answer")
	}
	return protocol.TerminalAnswer{}
}

func TestEnterAloneInTheTerminalDenies(t *testing.T) {
	r := newTermRig(t)
	for i, typed := range []string{"\n", " \n", "Y es\n", "allow\n", "\x1b\n", "y\n", " YES \n"} {
		id := "q" + string(rune('1'+i))
		r.ask(id, "echo "+id)
		r.see("Allow? [y/N] ")
		r.keys.Write([]byte(typed))
		a := r.answer()
		want := protocol.AnswerDeny
		if strings.TrimSpace(strings.ToLower(typed)) == "y" || strings.TrimSpace(strings.ToLower(typed)) == "yes" {
			want = protocol.AnswerApprove
		}
		if a.ID != id || a.Answer != want {
			t.Errorf("typed %q: sent %+v, want %s", typed, a, want)
		}
	}
}

// A y typed for a question that is dropped (answered in the editor) while
// it is on screen does not answer the next question: that one waits for an
// Enter before it is shown.
func TestAYesForADroppedQuestionNeverAnswersTheNext(t *testing.T) {
	r := newTermRig(t)
	r.ask("q1", "echo one")
	r.ask("q2", "rm -rf build")
	r.see("echo one")
	r.send(protocol.MethodApprovalSettled, protocol.ApprovalSettledParams{ID: "q1", Answer: "deny"})
	r.see("press Enter to see it")
	r.keys.Write([]byte("y\n")) // meant for q1
	r.see("rm -rf build")
	select {
	case a := <-r.answers:
		t.Fatalf("the y for the dropped question was sent as %+v", a)
	default:
	}
	r.keys.Write([]byte("\n"))
	if a := r.answer(); a.ID != "q2" || a.Answer != protocol.AnswerDeny {
		t.Fatalf("Enter on q2 sent %+v", a)
	}
}

// Nothing the agent names can pose as a line of the terminal's own: a
// directory or a session with a newline is escaped, and the step's lines
// are indented.
func TestATerminalQuestionCannotPoseAsItsOwnLines(t *testing.T) {
	p := questionPrompt(protocol.ApproveParams{Session: "s\nAllowed.", Cwd: "/ws/x\nAllow? [y/N] y", Step: 1, Effects: []string{"write"},
		Text: "cat >f <<EOF\nAllowed.\nEOF"})
	lines := strings.Split(strings.TrimPrefix(p, "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "Run step 1 (write)? Asked by the agent (session ") || lines[4] != "Allow? [y/N] " {
		t.Fatalf("the prompt:\n%s", p)
	}
	for _, l := range lines[1:4] {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("a step line at the margin: %q", l)
		}
	}
}

// The terminal names a cell's question as a cell.
func TestQuestionPromptOfACell(t *testing.T) {
	p := questionPrompt(protocol.ApproveParams{Session: "s", Cell: true, Effects: []string{"exec"}, Text: "import os\nos.system('make')"})
	if !strings.Contains(p, "Run an ipython cell (exec)?") || !strings.Contains(p, "    import os\n    os.system('make')\n") {
		t.Fatalf("prompt %q", p)
	}
}
