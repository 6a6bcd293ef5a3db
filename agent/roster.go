package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eukhe/eukhe/gate"
)

// Handler runs one call of a roster tool with its arguments as sent.
type Handler func(ctx context.Context, s *Session, args json.RawMessage) Result

// Spec is a roster tool as declared: its name, what the model reads about
// it, its declared input schema and version, the runner it declares (nil
// for a tool that runs no code of its own, G4) and its handler.
type Spec struct {
	Name        string
	Description string
	Schema      Object
	Version     int
	Runner      *gate.Runner
	ReadOnly    bool
	Handler     Handler
	// MaxArgs bounds the arguments' size in bytes; 0 is DefaultMaxArgs.
	MaxArgs int
}

// DefaultMaxArgs bounds a call's arguments unless the tool says otherwise.
const DefaultMaxArgs = 1 << 20

// Tool is a roster tool as the session sends it: its spec, its built
// schema, and that schema's bytes (built once, at open).
type Tool struct {
	Spec
	Built Object
	Wire  json.RawMessage
	// args checks a call's arguments against Built (argcheck.go).
	args *argSchema
}

// ChangeKind is a kind of roster change (S7.1).
type ChangeKind uint8

// The roster changes of S7.1.
const (
	// Install adds a tool (an extension's install).
	Install ChangeKind = iota + 1
	// Uninstall removes one.
	Uninstall
	// Configure replaces the tool list (a configure of tools, modelTools
	// or extensions).
	Configure
	// AddTools adds tools for one round.
	AddTools
)

func (k ChangeKind) String() string {
	switch k {
	case Install:
		return "install"
	case Uninstall:
		return "uninstall"
	case Configure:
		return "configure"
	case AddTools:
		return "add_tools"
	}
	return fmt.Sprintf("change(%d)", uint8(k))
}

// Change is one attempt to change the roster.
type Change struct {
	Kind  ChangeKind
	Tools []Spec // Install, Configure, AddTools
	Names []string
}

// RosterFixed is the typed refusal of any roster change once the session
// is open (S7.1): the tool list each request sends stays the same, so the
// prompt cache stays valid. A tool that comes later joins behind dyn.
type RosterFixed struct {
	Kind ChangeKind
}

func (e *RosterFixed) Error() string {
	return fmt.Sprintf("RosterFixed: the tool roster is fixed when the session opens; %s is refused. "+
		"A tool that comes later joins behind dyn (Surface.Join) instead", e.Kind)
}

// Roster is the tool list of one session: changed freely until Fix, then
// fixed (roster_fixed). Its registry is the gate's record of which tools
// run code (G4, gate_covers_every_runner).
type Roster struct {
	specs []Spec
	tools []Tool
	index map[string]int
	reg   *gate.Registry
	fixed bool
}

// Apply makes one change before the roster is fixed; after, it is a
// *RosterFixed and nothing changes.
func (r *Roster) Apply(c Change) error {
	if r.fixed {
		return &RosterFixed{Kind: c.Kind}
	}
	switch c.Kind {
	case Install, AddTools:
		for _, s := range c.Tools {
			for _, have := range r.specs {
				if have.Name == s.Name {
					return fmt.Errorf("tool %q is in the roster already", s.Name)
				}
			}
			r.specs = append(r.specs, s)
		}
	case Uninstall:
		for _, n := range c.Names {
			for i, have := range r.specs {
				if have.Name == n {
					r.specs = append(r.specs[:i:i], r.specs[i+1:]...)
					break
				}
			}
		}
	case Configure:
		r.specs = append([]Spec(nil), c.Tools...)
	default:
		return fmt.Errorf("unknown roster change %v", c.Kind)
	}
	return nil
}

// Fix builds every schema (S7.3), registers every tool with the gate (a
// runner must be gated, G4) and fixes the roster (S7.1).
func (r *Roster) Fix() error {
	if r.fixed {
		return nil
	}
	reg := &gate.Registry{}
	tools := make([]Tool, 0, len(r.specs))
	index := map[string]int{}
	for _, s := range r.specs {
		built, err := Build(s.Schema, s.Version)
		if err != nil {
			return fmt.Errorf("tool %s: %v", s.Name, err)
		}
		wire, err := json.Marshal(built)
		if err != nil {
			return fmt.Errorf("tool %s: %v", s.Name, err)
		}
		args, err := newArgSchema(wire)
		if err != nil {
			return fmt.Errorf("tool %s: %v", s.Name, err)
		}
		if err := reg.Register(s.Name, s.Runner); err != nil {
			return err
		}
		index[s.Name] = len(tools)
		tools = append(tools, Tool{Spec: s, Built: built, Wire: wire, args: args})
	}
	r.tools, r.index, r.reg, r.fixed = tools, index, reg, true
	return nil
}

// Fixed tells whether the roster is fixed.
func (r *Roster) Fixed() bool { return r.fixed }

// Tools are the roster as sent, in order; empty before Fix.
func (r *Roster) Tools() []Tool { return r.tools }

// Lookup finds a roster tool by name.
func (r *Roster) Lookup(name string) (*Tool, bool) {
	i, ok := r.index[name]
	if !ok {
		return nil, false
	}
	return &r.tools[i], true
}

// Registry is the gate's registry of the roster (G4).
func (r *Roster) Registry() *gate.Registry { return r.reg }

// Names are the roster's tool names in order.
func (r *Roster) Names() []string {
	ns := make([]string, len(r.tools))
	for i, t := range r.tools {
		ns[i] = t.Name
	}
	return ns
}
