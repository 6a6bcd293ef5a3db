package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/protocol"
)

// fakeTerm is one `eukhe approvals` on a pipe to a Terminals.
type fakeTerm struct {
	t  *testing.T
	c  net.Conn
	sc *bufio.Scanner
}

func attachTerm(t *testing.T, ts *Terminals, hello string) *fakeTerm {
	dir, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go ts.Serve(ctx, ln)
	b, err := net.Dial("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); b.Close(); os.RemoveAll(dir) })
	b.Write([]byte(hello + "\n"))
	return &fakeTerm{t: t, c: b, sc: bufio.NewScanner(b)}
}

func (f *fakeTerm) next() map[string]any {
	f.t.Helper()
	if !f.sc.Scan() {
		f.t.Fatalf("the endpoint closed: %v", f.sc.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(f.sc.Bytes(), &m); err != nil {
		f.t.Fatal(err)
	}
	return m
}

func (f *fakeTerm) answer(id, a string) {
	b, _ := json.Marshal(map[string]string{"id": id, "answer": a})
	f.c.Write(append(b, '\n'))
}

// Two terminals: the first answer wins, the other is told how it was
// settled; approve_session lets the same step run unasked after, but is
// never granted for a protected step.
func TestTerminalsFirstAnswerWinsAndGrants(t *testing.T) {
	testkit.NeedUnixSockets(t)
	ts := &Terminals{}
	one, two := attachTerm(t, ts, `{"eukhe":"approvals"}`), attachTerm(t, ts, `{"eukhe":"approvals"}`)
	for _, f := range []*fakeTerm{one, two} {
		if m := f.next(); m["eukhe"] != "attached" {
			t.Fatalf("hello answer %v", m)
		}
	}
	if att := ts.Attached(); att.Interactive != 2 {
		t.Fatalf("attached %+v", att)
	}
	ask := func(q gate.Question, winner *fakeTerm, loser *fakeTerm, a string) gate.Answer {
		done := make(chan gate.Answer)
		go func() { ans, _ := ts.Ask(context.Background(), q); done <- ans }()
		m1, m2 := winner.next(), loser.next()
		p := m1["params"].(map[string]any)
		if m1["method"] != protocol.MethodApprove || m2["method"] != protocol.MethodApprove || p["offers"].([]any)[0] != protocol.AnswerDeny {
			t.Fatalf("questions %v %v", m1, m2)
		}
		winner.answer(p["id"].(string), a)
		ans := <-done
		if s := loser.next(); s["method"] != protocol.MethodApprovalSettled || s["params"].(map[string]any)["answer"] != ans.String() {
			t.Fatalf("the loser got %v", s)
		}
		return ans
	}
	q := gate.Question{Session: "s", What: "echo hi > a", Effects: gate.Of(gate.Write), Step: 1, Cwd: "/w"}
	if a := ask(q, two, one, protocol.AnswerApproveSession); a != gate.Approve {
		t.Fatalf("answer %v", a)
	}
	if a, ok := ts.Ask(context.Background(), q); a != gate.Approve || !ok {
		t.Fatalf("the granted step asked again: %v", a)
	}
	prot := gate.Question{Session: "s", What: "echo x > .git/config", Effects: gate.Of(gate.Write, gate.Protected), Step: 1, Cwd: "/w"}
	if a := ask(prot, one, two, protocol.AnswerApproveSession); a != gate.Approve {
		t.Fatalf("answer %v", a)
	}
	if a := ask(prot, one, two, "no"); a != gate.Deny {
		t.Fatalf("a protected step was granted for the session, or an odd answer did not deny: %v", a)
	}
}

// A hello that is not `eukhe approvals` gets an error and is closed; a
// gateway is only counted.
func TestTerminalsHello(t *testing.T) {
	testkit.NeedUnixSockets(t)
	ts := &Terminals{}
	bad := attachTerm(t, ts, `{"eukhe":"attach","root":"/x"}`)
	if m := bad.next(); !strings.Contains(m["error"].(string), "only `eukhe approvals`") {
		t.Fatalf("bad hello answer %v", m)
	}
	gw := attachTerm(t, ts, `{"eukhe":"approvals","gateway":true}`)
	gw.next()
	if att := ts.Attached(); att.Interactive != 0 || att.Gateway != 1 {
		t.Fatalf("attached %+v", att)
	}
	if a, ok := ts.Ask(context.Background(), gate.Question{What: "x", Effects: gate.Of(gate.Write)}); ok || a != gate.Unanswered {
		t.Fatalf("a gateway was asked: %v %v", a, ok)
	}
}
