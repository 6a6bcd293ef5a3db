package gate

// Attached is who is attached to a session when a question reaches it: its
// interactive clients (the editor, `eukhe approvals`) and its phone
// gateways (G5).
type Attached struct {
	Interactive int
	Gateway     int
}

// Action is what a session does with a question that reaches it (G5 next).
type Action uint8

// The four actions.
const (
	// ShowClients shows the question to the session's interactive clients;
	// the first answer is the answer.
	ShowClients Action = iota + 1
	// ByGatewayRule answers at once by the gateway rule: no one waits on a
	// phone.
	ByGatewayRule
	// RelayToParent hands the question to the parent session.
	RelayToParent
	// NoOneAnswers ends the question unanswered: a root with no client.
	NoOneAnswers
)

func (a Action) String() string {
	switch a {
	case ShowClients:
		return "show"
	case ByGatewayRule:
		return "gateway_rule"
	case RelayToParent:
		return "relay"
	case NoOneAnswers:
		return "unanswered"
	}
	return "action(?)"
}

// Next is what a session with these clients does with a question (G5):
// interactive clients are asked; a session with only gateways answers by
// the gateway rule; a session with no client relays to its parent; a root
// with no client leaves it unanswered. Call it again with Interactive 0
// when every interactive client left without answering.
func Next(a Attached, root bool) Action {
	switch {
	case a.Interactive > 0:
		return ShowClients
	case a.Gateway > 0:
		return ByGatewayRule
	case root:
		return NoOneAnswers
	}
	return RelayToParent
}

// Fate is the gateway rule (G5): a step with protected or secret is
// refused; every other step runs.
func Fate(effs Effects) Answer {
	if effs.Has(Protected) || effs.Has(Secret) {
		return GatewayRefused
	}
	return Approve
}

// Clients is how the clients of one session of a chain behave, for Route.
type Clients uint8

// The client behaviours a route can meet.
const (
	// NoClients: none attached.
	NoClients Clients = iota
	// Answering: interactive clients; one answers with the session's Answer.
	Answering
	// Leaving: interactive clients that all detach without an answer.
	Leaving
	// GatewayAlone: only the phone gateway.
	GatewayAlone
	// AnsweringBesideGateway: an interactive client beside the gateway
	// answers.
	AnsweringBesideGateway
	// LeavingBesideGateway: the interactive clients leave, the gateway
	// stays.
	LeavingBesideGateway
	numClients
)

// Hop is one session of a chain: how its clients behave, and the answer
// its interactive clients give when they answer (Approve or Deny).
type Hop struct {
	Clients Clients
	Answer  Answer
}

// Attached is who the hop has attached when the question arrives.
func (h Hop) Attached() Attached {
	switch h.Clients {
	case Answering, Leaving:
		return Attached{Interactive: 1}
	case GatewayAlone:
		return Attached{Gateway: 1}
	case AnsweringBesideGateway, LeavingBesideGateway:
		return Attached{Interactive: 1, Gateway: 1}
	}
	return Attached{}
}

// Routed is how a question went along a chain.
type Routed struct {
	// Answer decides the step.
	Answer Answer
	// Shown are the sessions (indices into the chain) whose interactive
	// clients got a frame, in order.
	Shown []int
	// Reached are the sessions the question reached, in order.
	Reached []int
	// DecidedBy is the session whose clients or gateway rule answered, or
	// -1 when no one answered.
	DecidedBy int
}

// Route takes a question about a step with effects effs from the first
// session of chain (the one that asks) up to the last (the root), with
// Next, the clients' answers and Fate (G5). It is the model the real
// router (Ask) follows.
func Route(chain []Hop, effs Effects) Routed {
	r := Routed{DecidedBy: -1}
	for i, h := range chain {
		root := i == len(chain)-1
		r.Reached = append(r.Reached, i)
		att := h.Attached()
		act := Next(att, root)
		if act == ShowClients {
			r.Shown = append(r.Shown, i)
			if h.Clients == Answering || h.Clients == AnsweringBesideGateway {
				r.Answer, r.DecidedBy = h.Answer, i
				return r
			}
			att.Interactive = 0
			act = Next(att, root)
		}
		switch act {
		case ByGatewayRule:
			r.Answer, r.DecidedBy = Fate(effs), i
			return r
		case NoOneAnswers:
			r.Answer = Unanswered
			return r
		}
	}
	r.Answer = Unanswered
	return r
}
