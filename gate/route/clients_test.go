package route

import (
	"context"
	"fmt"
	"sync"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// The clients the G5 laws route questions to. A session of a chain is
// either Headless (the sink the hosts give a session with no editor,
// with or without its Client) or a clientSet: clients attached to one
// session that each run on their own goroutine, as the editor's broker
// runs them — an interactive client answers or detaches without an
// answer, the first answer wins, and a detached client is no longer
// attached; the phone gateway is attached but never asked. The laws are
// checked on Chain.Ask, the router that runs, over these.

// clientKind is how one client behaves when a question reaches it.
type clientKind uint8

const (
	// answers: an interactive client that answers with its answer.
	answers clientKind = iota
	// leaves: an interactive client that detaches without answering.
	leaves
	// phone: the phone gateway; attached, never asked.
	phone
)

// client is one attached client; frames are the questions it was shown.
type client struct {
	kind   clientKind
	answer gate.Answer // Approve or Deny, when kind is answers

	mu     sync.Mutex
	frames []gate.Question
}

func (c *client) shown() []gate.Question {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]gate.Question(nil), c.frames...)
}

// ask shows q to the client, on its own goroutine; ok is false when it
// detached without answering.
func (c *client) ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	c.mu.Lock()
	c.frames = append(c.frames, q)
	c.mu.Unlock()
	if c.kind != answers || ctx.Err() != nil {
		return gate.Unanswered, false
	}
	return c.answer, true
}

// clientSet is the sink of a session with these clients attached.
type clientSet struct {
	mu       sync.Mutex
	attached []*client
	all      []*client // every client it had, detached ones too
}

func newClientSet(cs ...*client) *clientSet {
	return &clientSet{attached: append([]*client(nil), cs...), all: cs}
}

func (s *clientSet) Attached() Attached {
	s.mu.Lock()
	defer s.mu.Unlock()
	var a Attached
	for _, c := range s.attached {
		if c.kind == phone {
			a.Gateway++
		} else {
			a.Interactive++
		}
	}
	return a
}

func (s *clientSet) detach(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, d := range s.attached {
		if d == c {
			s.attached = append(s.attached[:i:i], s.attached[i+1:]...)
			return
		}
	}
}

// Ask shows q to every attached interactive client at once; the first
// answer is the answer; ok is false when all of them detached.
func (s *clientSet) Ask(ctx context.Context, q gate.Question) (gate.Answer, bool) {
	s.mu.Lock()
	var asked []*client
	for _, c := range s.attached {
		if c.kind != phone {
			asked = append(asked, c)
		}
	}
	s.mu.Unlock()
	type reply struct {
		a  gate.Answer
		ok bool
	}
	replies := make(chan reply, len(asked))
	for _, c := range asked {
		go func() {
			a, ok := c.ask(ctx, q)
			if !ok {
				s.detach(c)
			}
			replies <- reply{a, ok}
		}()
	}
	for left := 0; left < len(asked); {
		select {
		case r := <-replies:
			if r.ok {
				return r.a, true
			}
			left++
		case <-ctx.Done(): // a question that ends waiting is unanswered
			return gate.Unanswered, true
		}
	}
	return gate.Unanswered, false
}

// node is one generated session of a chain: its sink, and what the laws
// know of it.
type node struct {
	link     Link
	clients  []*client // the clientSet's clients; nil for a Headless sink
	headless *headless // the Headless sink's client, when it has one
}

// headless is the Client of a Headless sink that answers.
type headless struct {
	answer gate.Answer
	mu     sync.Mutex
	frames []gate.Question
}

func (h *headless) ask(_ context.Context, q gate.Question) gate.Answer {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.frames = append(h.frames, q)
	return h.answer
}

// shape is what a session's clients are, as the laws see them.
type shape uint8

const (
	// quiet: no client answers (none attached, or all leave) and no
	// gateway.
	quiet shape = iota
	// answersHere: an interactive client answers.
	answersHere
	// gatewayRuled: no interactive client answers, a gateway is attached.
	gatewayRuled
)

func (n node) shape() shape {
	if n.headless != nil {
		return answersHere
	}
	gw := false
	for _, c := range n.clients {
		switch c.kind {
		case answers:
			return answersHere
		case phone:
			gw = true
		}
	}
	if gw {
		return gatewayRuled
	}
	return quiet
}

// answers are the answers this session's interactive clients give.
func (n node) answers() []gate.Answer {
	if n.headless != nil {
		return []gate.Answer{n.headless.answer}
	}
	var as []gate.Answer
	for _, c := range n.clients {
		if c.kind == answers {
			as = append(as, c.answer)
		}
	}
	return as
}

// frames are the questions this session's clients were shown.
func (n node) frames() []gate.Question {
	if n.headless != nil {
		n.headless.mu.Lock()
		defer n.headless.mu.Unlock()
		return append([]gate.Question(nil), n.headless.frames...)
	}
	var fs []gate.Question
	for _, c := range n.clients {
		fs = append(fs, c.shown()...)
	}
	return fs
}

// shownToAll reports whether every interactive client of the session was
// shown exactly one frame, and no gateway any.
func (n node) shownToAll() bool {
	if n.headless != nil {
		return len(n.frames()) == 1
	}
	for _, c := range n.clients {
		if want := map[bool]int{true: 0, false: 1}[c.kind == phone]; len(c.shown()) != want {
			return false
		}
	}
	return true
}

var twoAnswers = []gate.Answer{gate.Approve, gate.Deny}

// genClients draws the clients of a session: kinds drawn from kinds, one
// to three of them.
func genClients(t *rapid.T, kinds ...clientKind) []*client {
	n := rapid.IntRange(1, 3).Draw(t, "clients")
	cs := make([]*client, n)
	for i := range cs {
		cs[i] = &client{kind: rapid.SampledFrom(kinds).Draw(t, "kind"),
			answer: rapid.SampledFrom(twoAnswers).Draw(t, "their answer")}
	}
	return cs
}

// The sessions a chain is drawn from.
func nobody(*rapid.T) node { return node{link: Link{Asker: Headless{}}} }

func clientsOf(cs ...*client) node {
	return node{link: Link{Asker: newClientSet(cs...)}, clients: cs}
}

func headlessClient(t *rapid.T) node {
	h := &headless{answer: rapid.SampledFrom(twoAnswers).Draw(t, "its answer")}
	return node{link: Link{Asker: Headless{Client: h.ask}}, headless: h}
}

// genQuiet is a session no client answers: none attached, or clients that
// all leave.
func genQuiet(t *rapid.T) node {
	if rapid.Bool().Draw(t, "no client") {
		return nobody(t)
	}
	return clientsOf(genClients(t, leaves)...)
}

// genAnswering is a session an interactive client answers, maybe beside
// clients that leave and the gateway.
func genAnswering(t *rapid.T) node {
	if rapid.IntRange(0, 3).Draw(t, "headless") == 0 {
		return headlessClient(t)
	}
	cs := genClients(t, answers, leaves, phone)
	cs = append(cs, &client{kind: answers, answer: rapid.SampledFrom(twoAnswers).Draw(t, "its answer")})
	return clientsOf(cs...)
}

// genGatewayOnly is a session whose clients are the gateway alone.
func genGatewayOnly(t *rapid.T) node { return clientsOf(genClients(t, phone)...) }

// genLeftToGateway is a session whose interactive clients all leave while
// the gateway stays.
func genLeftToGateway(t *rapid.T) node {
	return clientsOf(append(genClients(t, leaves), genClients(t, phone)...)...)
}

// genNode is any session.
func genNode(t *rapid.T) node {
	switch rapid.IntRange(0, 3).Draw(t, "session") {
	case 0:
		return genQuiet(t)
	case 1:
		return genAnswering(t)
	case 2:
		return genGatewayOnly(t)
	}
	return genLeftToGateway(t)
}

// genChainOf draws a chain of one to eight sessions, each from gen, and
// names them: the first is the asking subagent.
func genChainOf(t *rapid.T, gen func(*rapid.T) node) []node {
	n := rapid.IntRange(1, 8).Draw(t, "sessions")
	nodes := make([]node, n)
	for i := range nodes {
		nodes[i] = gen(t)
		nodes[i].link.Name = fmt.Sprintf("s%d", i)
	}
	return nodes
}

func chainOf(nodes []node) Chain {
	c := make(Chain, len(nodes))
	for i, n := range nodes {
		c[i] = n.link
	}
	return c
}

// gatewayRule is G5's rule, as the seed states it: a step with protected
// or secret is refused; every other step runs.
func gatewayRule(effs gate.Effects) gate.Answer {
	if effs.Has(gate.Protected) || effs.Has(gate.Secret) {
		return gate.GatewayRefused
	}
	return gate.Approve
}

// ask routes a question about effs up the chain with the real router.
func ask(nodes []node, effs gate.Effects) gate.Answer {
	return chainOf(nodes).Ask(context.Background(), gate.Question{What: "step", Effects: effs})
}
