// Package brokertest is the one test suite of the approval broker (G5,
// agent.Broker), run with every kind of client: each kind gives a real
// agent.Client and its user, a test double that sees the client's
// question (a dialog, a terminal line, an elicitation form, a parent's
// client) and answers it. The packages that hold a kind run Run with it:
// agent its MCP client, terminal and parent session; lsp the editor.
package brokertest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
)

// Choice is what a user answers.
type Choice int

// The three choices a dialog offers.
const (
	Allow Choice = iota + 1
	Deny
	AllowForSession
)

// User is the person in front of one client.
type User interface {
	// Shown waits until the client shows a question and gives its step
	// as the client received it (fails the test after a while).
	Shown(t testing.TB) string
	// Answer answers the question shown last.
	Answer(t testing.TB, c Choice)
	// Dropped waits until the client dropped the question it showed: it
	// was told the question settled, or its ask was cancelled.
	Dropped(t testing.TB)
	// Leave ends the client's connection while it shows a question.
	Leave(t testing.TB)
}

// Kind is one kind of client.
type Kind struct {
	Name string
	// New makes one client of this kind and its user.
	New func(t *testing.T) (agent.Client, User)
}

// wait bounds each step of a case.
const wait = 10 * time.Second

// asking is one question in flight.
type asking struct {
	done chan struct{}
	a    gate.Answer
	ok   bool
}

func ask(b *agent.Broker, q gate.Question) *asking {
	r := &asking{done: make(chan struct{})}
	go func() {
		r.a, r.ok = b.Ask(context.Background(), q)
		close(r.done)
	}()
	return r
}

func (r *asking) result(t testing.TB) (gate.Answer, bool) {
	t.Helper()
	select {
	case <-r.done:
		return r.a, r.ok
	case <-time.After(wait):
		t.Fatal("the broker did not answer")
	}
	return 0, false
}

var sessions struct {
	mu sync.Mutex
	n  int
}

// question is a write step of a session of its own, so no test's grant
// covers another's.
func question(t testing.TB) gate.Question {
	sessions.mu.Lock()
	sessions.n++
	id := fmt.Sprintf("brokertest-%d", sessions.n)
	sessions.mu.Unlock()
	t.Cleanup(func() { agent.Grants.Forget(id) })
	return gate.Question{Session: id, What: "echo hi > a.txt", Effects: gate.Of(gate.Write), Step: 1,
		Cwd: "/w", Reals: []string{"/w/a.txt"}}
}

// Run runs every case with each kind as the client under test; a Fake
// client stands beside it where a case needs two.
func Run(t *testing.T, kinds ...Kind) {
	for _, k := range kinds {
		t.Run(k.Name, func(t *testing.T) {
			t.Run("first_answer_wins", func(t *testing.T) { firstAnswerWins(t, k) })
			t.Run("the_other_answers_first", func(t *testing.T) { otherAnswersFirst(t, k) })
			t.Run("a_denial_stops", func(t *testing.T) { aDenialStops(t, k) })
			t.Run("no_client_is_a_refusal", func(t *testing.T) { noClient(t, k) })
			t.Run("every_client_left", func(t *testing.T) { everyClientLeft(t, k) })
			t.Run("timeout_is_a_refusal", func(t *testing.T) { timeout(t, k) })
			t.Run("allow_for_this_session_grants_only_the_judged_step", func(t *testing.T) { grantsOnlyTheJudgedStep(t, k) })
		})
	}
}

// The client under test answers first: its answer is the broker's, and
// the other client is told how the question settled.
func firstAnswerWins(t *testing.T, k Kind) {
	c, u := k.New(t)
	f, fu := NewFake()
	b := &agent.Broker{}
	b.Join(c)
	b.Join(f)
	if att := b.Attached(); att.Interactive != 2 {
		t.Fatalf("attached %+v", att)
	}
	q := question(t)
	r := ask(b, q)
	if s := u.Shown(t); s != q.What {
		t.Fatalf("the client showed %q", s)
	}
	fu.Shown(t)
	u.Answer(t, Allow)
	if a, ok := r.result(t); a != gate.Approve || !ok {
		t.Fatalf("answer %v %v", a, ok)
	}
	if how := fu.SettledHow(t); !how.Answered || how.Answer != gate.Approve {
		t.Fatalf("the other client was told %+v", how)
	}
}

// The other client answers first: the client under test drops the
// question.
func otherAnswersFirst(t *testing.T, k Kind) {
	c, u := k.New(t)
	f, fu := NewFake()
	b := &agent.Broker{}
	b.Join(c)
	b.Join(f)
	r := ask(b, question(t))
	u.Shown(t)
	fu.Shown(t)
	fu.Answer(t, Deny)
	if a, ok := r.result(t); a != gate.Deny || !ok {
		t.Fatalf("answer %v %v", a, ok)
	}
	u.Dropped(t)
}

// A denial from the client under test stops the step, and nothing is
// granted by it.
func aDenialStops(t *testing.T, k Kind) {
	c, u := k.New(t)
	b := &agent.Broker{}
	b.Join(c)
	q := question(t)
	r := ask(b, q)
	u.Shown(t)
	u.Answer(t, Deny)
	if a, ok := r.result(t); a != gate.Deny || !ok {
		t.Fatalf("answer %v %v", a, ok)
	}
	if agent.Grants.Covers(q) {
		t.Fatal("a denial granted the step")
	}
}

// A client that left is not asked: with none, the question is a refusal
// at once and ok is false (the chain's next rule).
func noClient(t *testing.T, k Kind) {
	c, _ := k.New(t)
	b := &agent.Broker{}
	leave := b.Join(c)
	leave()
	if att := b.Attached(); att.Interactive != 0 {
		t.Fatalf("attached after leaving %+v", att)
	}
	a, ok := ask(b, question(t)).result(t)
	if a != gate.Unanswered || ok {
		t.Fatalf("no client: %v %v", a, ok)
	}
}

// The only client's connection ends while it shows the question: not
// answered, ok false.
func everyClientLeft(t *testing.T, k Kind) {
	c, u := k.New(t)
	b := &agent.Broker{}
	b.Join(c)
	r := ask(b, question(t))
	u.Shown(t)
	u.Leave(t)
	if a, ok := r.result(t); a != gate.Unanswered || ok {
		t.Fatalf("after the client left: %v %v", a, ok)
	}
}

// No answer within the timeout: unanswered (a refusal), and the client
// drops the question.
func timeout(t *testing.T, k Kind) {
	c, u := k.New(t)
	b := &agent.Broker{Timeout: func() time.Duration { return 300 * time.Millisecond }}
	b.Join(c)
	r := ask(b, question(t))
	u.Shown(t)
	if a, ok := r.result(t); a != gate.Unanswered || !ok {
		t.Fatalf("after the timeout: %v %v", a, ok)
	}
	u.Dropped(t)
}

// "Allow for this session" runs the step, and the same step as judged
// runs unasked after; a step that differs in anything judged (its text,
// directory, effects, real paths, session) is asked again, and a
// protected step is never granted.
func grantsOnlyTheJudgedStep(t *testing.T, k Kind) {
	c, u := k.New(t)
	b := &agent.Broker{Timeout: func() time.Duration { return wait }}
	b.Join(c)
	q := question(t)
	r := ask(b, q)
	u.Shown(t)
	u.Answer(t, AllowForSession)
	if a, ok := r.result(t); a != gate.Approve || !ok {
		t.Fatalf("allow for this session: %v %v", a, ok)
	}
	if a, ok := ask(b, q).result(t); a != gate.Approve || !ok {
		t.Fatalf("the granted step: %v %v", a, ok)
	}
	other := question(t)
	differ := map[string]gate.Question{
		"text":       with(q, func(q *gate.Question) { q.What = "echo hi > b.txt" }),
		"directory":  with(q, func(q *gate.Question) { q.Cwd = "/v" }),
		"effects":    with(q, func(q *gate.Question) { q.Effects = gate.Of(gate.Write, gate.Outside) }),
		"real paths": with(q, func(q *gate.Question) { q.Reals = []string{"/home/u/.ssh/a.txt"} }),
		"session":    with(q, func(q *gate.Question) { q.Session = other.Session }),
		"protected":  with(q, func(q *gate.Question) { q.Effects = gate.Of(gate.Write, gate.Protected) }),
	}
	for _, name := range []string{"text", "directory", "effects", "real paths", "session", "protected"} {
		r := ask(b, differ[name])
		u.Shown(t)
		u.Answer(t, Deny)
		if a, _ := r.result(t); a != gate.Deny {
			t.Fatalf("a step whose %s differs ran unasked: %v", name, a)
		}
	}
	prot := differ["protected"]
	r = ask(b, prot)
	u.Shown(t)
	u.Answer(t, AllowForSession)
	r.result(t)
	r = ask(b, prot)
	u.Shown(t) // asked again: never granted
	u.Answer(t, Deny)
	if a, _ := r.result(t); a != gate.Deny {
		t.Fatalf("a protected step was granted for the session: %v", a)
	}
}

func with(q gate.Question, f func(*gate.Question)) gate.Question {
	q.Reals = append([]string(nil), q.Reals...)
	f(&q)
	return q
}
