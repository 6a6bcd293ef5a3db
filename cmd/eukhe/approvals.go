package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/lsp"
	"github.com/eukhe/eukhe/lsp/discovery"
	"github.com/eukhe/eukhe/protocol"
)

const approvalsUsage = `Usage: eukhe approvals [--gateway] [--root DIR]

Answers the questions of the agents attached to the editor's eukhe server
that serves DIR (default: the current directory), in this terminal: each
question shows the asking agent, the step exactly as it would run
(invisible characters escaped) and its effects, and reads y or N (Enter
alone is no). The editor is asked too; the first answer wins, and a
question answered elsewhere is shown as dropped (the next one is shown
after an Enter, so a y typed for the dropped one answers nothing).
  --gateway   attach as a gateway: no question is shown, and the gateway
              rule answers at once (a protected or secret step is refused,
              any other runs) while no interactive client is attached
  --root DIR  find the server of DIR instead of the current directory
`

func runApprovals(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, gateway := ".", false
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "eukhe approvals: "+format+"\n\n%s", append(a, approvalsUsage)...)
		return 2
	}
	words, err := flags{values: map[string]*string{"--root": &root}, bools: map[string]*bool{"--gateway": &gateway}}.parse(args)
	switch {
	case err == errHelp:
		fmt.Fprint(stdout, approvalsUsage)
		return 0
	case err != nil:
		return bad("%v", err)
	case len(words) > 0:
		return bad("unknown argument %q", words[0])
	}
	abs, err := absDir(root)
	if err != nil {
		return bad("--root %s: %v; give a directory that exists", root, err)
	}
	dir, err := discovery.Dir(gate.EnvFromList(os.Environ()))
	if err != nil {
		fmt.Fprintf(stderr, "eukhe approvals: %v\n", err)
		return 1
	}
	conn, entry, err := discovery.Find(dir, abs)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe approvals: %v (%s); open the project in an editor that runs eukhe lsp\n", err, abs)
		return 1
	}
	defer conn.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); conn.Close() }()
	hello, _ := json.Marshal(lsp.Hello{Eukhe: "approvals", Gateway: gateway})
	if _, err := conn.Write(append(hello, '\n')); err != nil {
		fmt.Fprintf(stderr, "eukhe approvals: %v\n", err)
		return 1
	}
	editor := entry.Editor
	if editor == "" {
		editor = "the editor"
	}
	if gateway {
		fmt.Fprintf(stdout, "Attached to %s's eukhe server (pid %d) as a gateway: no question is shown here. Ctrl-C detaches.\n", editor, entry.PID)
		io.Copy(io.Discard, conn)
		return 0
	}
	fmt.Fprintf(stdout, "Attached to %s's eukhe server (pid %d). Questions appear here; Ctrl-C detaches.\n", editor, entry.PID)
	return answerQuestions(conn, stdin, stdout)
}

// absDir is dir made absolute, when it is a directory.
func absDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("not a directory")
	}
	return abs, err
}

// answerQuestions shows the server's questions one at a time, oldest
// first, and sends each y / N (Enter alone, or anything but y or yes, is
// N); a question settled elsewhere is dropped. When the question on screen
// is dropped, the next one waits for an Enter before it is shown: a y
// typed for the dropped one must not answer the next.
func answerQuestions(conn net.Conn, stdin io.Reader, stdout io.Writer) int {
	type msg struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	msgs := make(chan msg)
	go func() {
		defer close(msgs)
		sc := bufio.NewScanner(conn)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var m msg
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				msgs <- m
			}
		}
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var queue []protocol.ApproveParams
	// held: the question on screen was dropped; the next is shown at the
	// next line read, which answers nothing.
	held := false
	show := func() {
		if len(queue) > 0 {
			fmt.Fprint(stdout, questionPrompt(queue[0]))
		}
	}
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				fmt.Fprintln(stdout, "The editor's eukhe server went away.")
				return 0
			}
			switch m.Method {
			case protocol.MethodApprove:
				var q protocol.ApproveParams
				if json.Unmarshal(m.Params, &q) != nil {
					continue
				}
				queue = append(queue, q)
				if len(queue) == 1 {
					held = false
					show()
				}
			case protocol.MethodApprovalSettled:
				var s protocol.ApprovalSettledParams
				json.Unmarshal(m.Params, &s)
				for i, q := range queue {
					if q.ID != s.ID {
						continue
					}
					queue = append(queue[:i], queue[i+1:]...)
					how := "answered elsewhere"
					if s.Answer != "" {
						how = "settled elsewhere: " + s.Answer
					}
					fmt.Fprintf(stdout, "\n(dropped: %s — %s)\n", printable(q.Text), how)
					if i == 0 {
						if held = len(queue) > 0; held {
							fmt.Fprint(stdout, "Another question waits: press Enter to see it. ")
						}
					}
					break
				}
			}
		case line, ok := <-lines:
			if !ok {
				return 0 // end of input: detach; pending questions go to the other clients
			}
			if len(queue) == 0 {
				held = false
				continue
			}
			if held {
				held = false
				show()
				continue
			}
			q := queue[0]
			queue = queue[1:]
			answer := protocol.AnswerDeny
			if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
				answer = protocol.AnswerApprove
			}
			b, _ := json.Marshal(lsp.TermAnswer{ID: q.ID, Answer: answer})
			if _, err := conn.Write(append(b, '\n')); err != nil {
				fmt.Fprintln(stdout, "The editor's eukhe server went away.")
				return 0
			}
			fmt.Fprintf(stdout, "%s.\n", map[string]string{protocol.AnswerApprove: "Allowed", protocol.AnswerDeny: "Denied"}[answer])
			show()
		}
	}
}

// questionPrompt is one question as the terminal shows it.
func questionPrompt(q protocol.ApproveParams) string {
	var b strings.Builder
	who := "The agent"
	if q.Agent != "" {
		who = "Subagent " + gate.Visible(q.Agent)
	}
	what := "an access"
	if q.Step > 0 {
		what = fmt.Sprintf("step %d", q.Step)
	}
	fmt.Fprintf(&b, "\n%s (session %s) asks to run %s", who, gate.Visible(q.Session), what)
	if q.Cwd != "" {
		fmt.Fprintf(&b, " in %s", gate.Visible(q.Cwd))
	}
	fmt.Fprintf(&b, " (%s):\n", strings.Join(q.Effects, "+"))
	for _, l := range strings.Split(printable(q.Text), "\n") {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	b.WriteString("Allow? [y/N] ")
	return b.String()
}

// printable escapes every character a terminal would hide or act on but
// newline and tab (the server escapes the step already; this holds even
// when it did not).
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '\n' || r == '\t' || unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\u{%x}", r)
		}
	}
	return b.String()
}
