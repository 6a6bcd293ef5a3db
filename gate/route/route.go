package route

import "github.com/eukhe/eukhe/gate"

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

// Next is what a session with these clients does with a question (G5),
// the decision Chain.Ask makes at each session a question reaches:
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

// GatewayRule is the gateway rule (G5), Chain.Ask's answer at a session whose
// clients are the phone gateway alone, or whose interactive clients all
// left beside it: a step with protected or secret is
// refused; every other step runs.
func GatewayRule(effs gate.Effects) gate.Answer {
	if effs.Has(gate.Protected) || effs.Has(gate.Secret) {
		return gate.GatewayRefused
	}
	return gate.Approve
}
