package gate

import "fmt"

// GateKind is how the gate covers a tool that runs code (G4). There is no
// ungated kind: the zero value is not a gate, and Register refuses it.
type GateKind uint8

// The two gate kinds.
const (
	// EachStep: every step is judged and asked about (bash).
	EachStep GateKind = iota + 1
	// EachCall: every call is one step with the runner's caps (a code
	// cell, such as ipython's).
	EachCall
)

func (g GateKind) String() string {
	switch g {
	case EachStep:
		return "each_step"
	case EachCall:
		return "each_call"
	}
	return "ungated"
}

// Runner is what a tool that runs code declares: its caps (each effect its
// code can have) and how the gate covers it.
type Runner struct {
	Caps Effects
	Gate GateKind
}

// Tool is one registered tool; Runner is nil for a tool that runs no code
// of its own.
type Tool struct {
	Name   string
	Runner *Runner
}

// Registry is the tools a session installs, in order, each with its
// runner.
type Registry struct{ tools []Tool }

// Register adds a tool. A runner must name a gate kind: a tool whose code
// can run programs cannot be registered ungated.
func (r *Registry) Register(name string, run *Runner) error {
	for _, t := range r.tools {
		if t.Name == name {
			return fmt.Errorf("tool %q is registered twice; give the second another name", name)
		}
	}
	if run != nil && run.Gate != EachStep && run.Gate != EachCall {
		return fmt.Errorf("tool %q declares a runner with no gate; a runner must be gated EachStep or EachCall", name)
	}
	if run != nil {
		cp := *run
		run = &cp
	}
	r.tools = append(r.tools, Tool{Name: name, Runner: run})
	return nil
}

// Tools are the registered tools in install order.
func (r *Registry) Tools() []Tool {
	out := make([]Tool, len(r.tools))
	copy(out, r.tools)
	return out
}

// Gated reports whether the named tool is covered by the gate.
func (r *Registry) Gated(name string) bool {
	for _, t := range r.tools {
		if t.Name == name {
			return t.Runner != nil && (t.Runner.Gate == EachStep || t.Runner.Gate == EachCall)
		}
	}
	return false
}

// BashRunner is the bash tool's runner: any effect, each step gated.
var BashRunner = Runner{Caps: allEffects, Gate: EachStep}

// CellRunner is a code cell's runner (ipython in the seed): exec, each
// call gated as one step (law ipython_gated_each_call).
var CellRunner = Runner{Caps: Of(Exec), Gate: EachCall}

// DefaultRegistry is the tools a default session installs (DESIGN §3.3):
// the document tools run no code; bash runs steps; dyn reaches tools that
// others run; ipython runs cells, each gated as one step.
func DefaultRegistry() *Registry {
	r := &Registry{}
	for _, n := range []string{"read", "edit", "write", "grep", "glob"} {
		_ = r.Register(n, nil)
	}
	bash, cell := BashRunner, CellRunner
	_ = r.Register("bash", &bash)
	_ = r.Register("ipython", &cell)
	_ = r.Register("dyn", nil)
	return r
}

// CellEnd is how one gated call ends (G4 cell).
type CellEnd struct {
	Runs   bool
	Asked  bool
	Answer Answer
}

// Cell is the gate of one EachCall call: its caps within the auto set run
// unasked; otherwise it runs only on Approve (answer is the route's answer,
// Unanswered when no client can answer).
func Cell(caps Effects, auto AutoSet, answer Answer) CellEnd {
	if auto.Holds(caps) {
		return CellEnd{Runs: true, Answer: Approve}
	}
	return CellEnd{Runs: answer.Runs(), Asked: true, Answer: answer}
}
