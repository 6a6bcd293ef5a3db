package gate

import "context"

// Question is what a client is asked (DESIGN §5).
type Question struct {
	// ID names the question; answers and settle notices carry it.
	ID string
	// Session is the session whose step asks.
	Session string
	// Agent names the asking subagent on a relayed question; empty on the
	// session's own question.
	Agent string
	// What is the step exactly as it runs, invisible characters escaped,
	// or "write /real/path" for a document access.
	What string
	// Effects are all the step's effects, not only those outside the auto
	// set: the dialog shows them, and the gateway rule (route.GatewayRule) judges them.
	Effects Effects
	// Step is the step's number in its script, from 1; 0 for an access or
	// a cell.
	Step int
	// Cell marks an ipython cell's question: What is its code, to run as
	// one step with the effect exec.
	Cell bool `json:"Cell,omitempty"`
	// Cwd is the directory the step runs in; "" for an access (its What
	// names a real path). An "allow for this session" answer is for this
	// exact What in this Cwd, with these Effects and Reals.
	Cwd string
	// Reals are the real paths the step named when it was judged (Step's
	// Reals), or the accessed document's; a grant covers only these.
	Reals []string `json:"Reals,omitempty"`
}

// Router is where a question goes (G5): route.Chain, which the hosts
// give the documents gate. gate never imports gate/route; it asks through
// this.
type Router interface {
	// Ask routes q and gives its answer.
	Ask(ctx context.Context, q Question) Answer
	// Hint is how the user can answer now, for the refusal text; "" is
	// the general sentence.
	Hint() string
	// Unheard is the attached client that could not be asked, in words;
	// "" when there is none.
	Unheard() string
}
