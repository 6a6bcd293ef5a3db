package brokertest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate"
)

// Desk is a User over channels, for a kind whose client's other end the
// test drives: the other end calls Show when the question reaches the
// user, Choice to wait for the user's answer, Drop when the question
// went away.
type Desk struct {
	shown   chan string
	choices chan Choice
	dropped chan struct{}
	leave   func()
}

// NewDesk is a desk whose Leave calls leave.
func NewDesk(leave func()) *Desk {
	return &Desk{shown: make(chan string, 16), choices: make(chan Choice, 16), dropped: make(chan struct{}, 16), leave: leave}
}

// Show records that the question reached the user.
func (d *Desk) Show(what string) { d.shown <- what }

// Choice waits for the user's answer; false when ctx ended first.
func (d *Desk) Choice(ctx context.Context) (Choice, bool) {
	select {
	case c := <-d.choices:
		return c, true
	case <-ctx.Done():
		return 0, false
	}
}

// Drop records that the question went away.
func (d *Desk) Drop() { d.dropped <- struct{}{} }

// Shown waits for a question.
func (d *Desk) Shown(t testing.TB) string {
	t.Helper()
	select {
	case s := <-d.shown:
		return s
	case <-time.After(wait):
		t.Fatal("the client showed no question")
	}
	return ""
}

// Answer gives the user's choice.
func (d *Desk) Answer(t testing.TB, c Choice) { d.choices <- c }

// Dropped waits until the question went away.
func (d *Desk) Dropped(t testing.TB) {
	t.Helper()
	select {
	case <-d.dropped:
	case <-time.After(wait):
		t.Fatal("the client did not drop the question")
	}
}

// Leave ends the client's connection.
func (d *Desk) Leave(t testing.TB) { d.leave() }

// Reply is a choice as a client's reply.
func Reply(c Choice) agent.Reply {
	switch c {
	case Allow:
		return agent.Reply{Answer: gate.Approve}
	case AllowForSession:
		return agent.Reply{Answer: gate.Approve, ForSession: true}
	}
	return agent.Reply{Answer: gate.Deny}
}

// Fake is a client with no wire: the test double of a client kind, and
// the client beside the one under test.
type Fake struct {
	*Desk
	once    sync.Once
	gone    chan struct{}
	settled chan agent.Settlement
}

// NewFake is a fake client and its user.
func NewFake() (*Fake, *Fake) {
	f := &Fake{gone: make(chan struct{}), settled: make(chan agent.Settlement, 16)}
	f.Desk = NewDesk(func() { f.once.Do(func() { close(f.gone) }) })
	return f, f
}

// Ask shows q and waits for the user's choice.
func (f *Fake) Ask(ctx context.Context, q agent.Asked) (agent.Reply, bool) {
	f.Show(q.What)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-f.gone:
			cancel()
		case <-ctx.Done():
		}
	}()
	c, ok := f.Desk.Choice(ctx)
	if !ok {
		return agent.Reply{}, false
	}
	return Reply(c), true
}

// Settled records how the question settled.
func (f *Fake) Settled(q agent.Asked, how agent.Settlement) {
	f.settled <- how
	f.Drop()
}

// SettledHow waits for the settle notice.
func (f *Fake) SettledHow(t testing.TB) agent.Settlement {
	t.Helper()
	select {
	case how := <-f.settled:
		return how
	case <-time.After(wait):
		t.Fatal("the fake was not told the question settled")
	}
	return agent.Settlement{}
}
