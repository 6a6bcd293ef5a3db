package agent

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
)

// mcp_progress_increases: whatever counts a call reports, the progress
// values sent to an MCP client strictly increase, each is a reported
// count, and every count above all before it is sent.
func TestLaw_mcp_progress_increases(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		counts := rapid.SliceOf(rapid.IntRange(0, 50)).Draw(rt, "counts")
		last, high := -1.0, -1
		for _, c := range counts {
			v, ok := nextProgress(last, docs.Progress{Done: c})
			if ok != (c > high) {
				rt.Fatalf("count %d after a high of %d: sent %v", c, high, ok)
			}
			if ok {
				if v <= last || v != float64(c) {
					rt.Fatalf("sent %v after %v for count %d", v, last, c)
				}
				last = v
			}
			high = max(high, c)
		}
	})
}

// bash_progress_says: the n-th report of a bash call counts n; its
// message is one line that names the step and its number among the
// script's, the lines of output so far, and the job it went on as.
func TestLaw_bash_progress_says(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		steps := rapid.IntRange(1, 9).Draw(rt, "steps")
		now := shell.Now{Steps: steps, Lines: rapid.Int64Range(0, 1e6).Draw(rt, "lines"),
			Asking: rapid.Bool().Draw(rt, "asking")}
		if rapid.Bool().Draw(rt, "started") {
			now.Step = rapid.IntRange(1, steps).Draw(rt, "step")
			now.Last = rapid.IntRange(now.Step, steps).Draw(rt, "last")
			now.Text = rapid.String().Draw(rt, "text")
		}
		if rapid.Bool().Draw(rt, "job") {
			now.Job = "j" + rapid.StringMatching(`[0-9]{1,3}`).Draw(rt, "id")
		}
		n := rapid.IntRange(1, 1000).Draw(rt, "n")
		p := bashProgress("bash x", now, n)
		m := p.Message
		if p.Done != n || p.What != "bash x" || p.End {
			rt.Fatalf("%+v", p)
		}
		if strings.Contains(m, "\n") {
			rt.Fatalf("two lines: %q", m)
		}
		switch {
		case now.Step == 0 && !strings.HasPrefix(m, "starting"):
			rt.Fatalf("before the first step: %q", m)
		case now.Step > 0 && now.Last == now.Step && !strings.HasPrefix(m, "step "+itoa(now.Step)+" of "+itoa(steps)):
			rt.Fatalf("step %d of %d: %q", now.Step, steps, m)
		case now.Last > now.Step && !strings.HasPrefix(m, "steps "+itoa(now.Step)+"-"+itoa(now.Last)+" of "+itoa(steps)):
			rt.Fatalf("steps %d-%d of %d: %q", now.Step, now.Last, steps, m)
		}
		if now.Step > 0 && !strings.Contains(m, ": "+oneLine(now.Text)) {
			rt.Fatalf("the step's text %q: %q", now.Text, m)
		}
		if now.Step > 0 && now.Asking != strings.Contains(m, "waits for the user's answer") {
			rt.Fatalf("asking %v: %q", now.Asking, m)
		}
		if now.Lines > 0 && !strings.Contains(m, docs.Count(int(now.Lines), "line")+" of output so far") ||
			now.Lines == 0 && !strings.Contains(m, "no output yet") {
			rt.Fatalf("%d lines: %q", now.Lines, m)
		}
		if (now.Job != "") != strings.Contains(m, "goes on as job "+now.Job) {
			rt.Fatalf("job %q: %q", now.Job, m)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestOneLine(t *testing.T) {
	long := strings.Repeat("é", 150)
	for in, want := range map[string]string{
		"go build ./...":                    "go build ./...",
		"for i in 1 2; do\n\techo $i\ndone": "for i in 1 2; do …",
		"echo a  \n\n":                      "echo a",
		long:                                strings.Repeat("é", progressLine-1) + "…",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
	if n := utf8.RuneCountInString(oneLine(long)); n != progressLine {
		t.Errorf("%d characters", n)
	}
}

func TestProgressEvery(t *testing.T) {
	for _, c := range []struct {
		opt  time.Duration
		env  string
		want time.Duration
	}{
		{0, "", 0}, {0, "50ms", 50 * time.Millisecond}, {time.Second, "50ms", time.Second},
		{0, "soon", 0}, {0, "-1s", 0}, {0, "0", 0},
	} {
		if got := progressEvery(c.opt, map[string]string{ProgressEveryEnv: c.env}); got != c.want {
			t.Errorf("progressEvery(%v, %q) = %v, want %v", c.opt, c.env, got, c.want)
		}
	}
}

// A bash call whose client sent a progress token gets notifications/progress
// naming the step, with progress rising; a call without a token gets none;
// a call that becomes a job stops reporting when it returns.
func TestBashProgressReachesTheClient(t *testing.T) {
	testkit.UnixPrograms(t, "sleep")
	dir := t.TempDir()
	env := map[string]string{"HOME": t.TempDir()}
	paths := settings.Locate(env, []string{dir})
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS)}
	s, err := Open(Options{Host: host, ShellBudget: 2 * time.Second, ProgressEvery: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	got := map[string][]*mcp.ProgressNotificationParams{}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			tok, _ := req.Params.ProgressToken.(string)
			got[tok] = append(got[tok], req.Params)
			mu.Unlock()
		}}).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Close() }()
	call := func(token string, args map[string]any) string {
		t.Helper()
		p := &mcp.CallToolParams{Name: "bash", Arguments: args}
		if token != "" {
			p.SetProgressToken(token)
		}
		res, err := cs.CallTool(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	// await gives token's notifications once the last one says last (the
	// client may handle a notification after the reply that followed it).
	await := func(token, last string) []*mcp.ProgressNotificationParams {
		t.Helper()
		deadline := time.Now().Add(time.Minute) // a hang guard only
		for {
			mu.Lock()
			ps := append([]*mcp.ProgressNotificationParams(nil), got[token]...)
			mu.Unlock()
			if n := len(ps); n > 0 && strings.Contains(ps[n-1].Message, last) {
				return ps
			}
			if time.Now().After(deadline) {
				t.Fatalf("waited in vain for %q on %s: %+v", last, token, ps)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	call("a", map[string]any{"script": "echo one; sleep 0.3; echo two && sleep 0.3"})
	ps := await("a", "step 4 of 4: sleep 0.3 — 2 lines of output so far")
	if len(ps) < 3 {
		t.Fatalf("notifications %+v", ps)
	}
	for i, p := range ps {
		if i > 0 && p.Progress <= ps[i-1].Progress {
			t.Fatalf("progress fell: %+v then %+v", ps[i-1], p)
		}
		if !regexp.MustCompile(`^step [1-4] of 4: (echo one|sleep 0\.3|echo two) — `).MatchString(p.Message) {
			t.Fatalf("message %q", p.Message)
		}
	}

	text := call("j", map[string]any{"script": "sleep 2.5; echo late"})
	if !strings.Contains(text, "j1") {
		t.Fatalf("not a job: %s", text)
	}
	await("j", "goes on as job j1")
	// settle returns once every notification sent before it has been
	// handled: the client handles them in order, but a reply overtakes
	// them, and a tick may name the job before the call's last report.
	settle := func(token string) {
		t.Helper()
		call(token, map[string]any{"script": "sleep 0.3"})
		await(token, "step 1 of 1: sleep 0.3 — no output yet")
	}
	settle("s")
	tokens := func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		n := map[string]int{}
		for tok, ps := range got {
			n[tok] = len(ps)
		}
		return n
	}
	of := tokens()
	// A call that waits for the job reports how it goes on its own token,
	// naming no job.
	if res := call("w", map[string]any{"job": "j1"}); !strings.Contains(res, "late") {
		t.Fatalf("bash {job: j1}: %s", res)
	}
	waited := await("w", "step 2 of 2: echo late — 1 line of output so far")
	for _, p := range waited {
		if !strings.HasPrefix(p.Message, "step ") || strings.Contains(p.Message, "job") {
			t.Fatalf("waiting for the job: %q", p.Message)
		}
	}
	// Nothing came of the job after its call, nor of a call without a
	// token: a call with one after them shows that whatever was sent
	// before it has been handled. (The waiting call's own token may
	// still get a late notification of its own: it is its to get.)
	call("", map[string]any{"script": "sleep 0.3"})
	settle("b")
	now := tokens()
	for tok, n := range now {
		switch {
		case tok == "w" || tok == "b" || tok == "s":
		case n != of[tok]:
			mu.Lock()
			late := got[tok][of[tok]:]
			mu.Unlock()
			t.Errorf("%d notifications came on token %q after its call ended (the job's, or a call's without a token): %s", n-of[tok], tok, messages(late))
		}
	}
}

// messages is what ps said, one quoted message each.
func messages(ps []*mcp.ProgressNotificationParams) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, " %q", p.Message)
	}
	return b.String()
}
