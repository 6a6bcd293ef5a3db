package agent

import (
	"context"
	"sync"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// DocGuard is the documents gate (G1.6, G1.7) as docs.PathGuard: each
// access is judged once with the session's auto set; one that must ask
// goes up the session's chain; the access then uses the real path the
// gate judged. docs never imports gate: this adapter is the wiring.
type DocGuard struct {
	Gate *gate.DocumentsGate

	mu  sync.Mutex
	ctx context.Context
}

// WithContext sets the context questions are asked under (the tool call's,
// so a cancelled call stops waiting).
func (d *DocGuard) WithContext(ctx context.Context) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
}

func (d *DocGuard) context() context.Context {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ctx == nil {
		return context.Background()
	}
	return d.ctx
}

// Allow judges path once, asks when the gate must, and gives the real path
// the access then uses. The error is a *gate.Refusal: the seed's refusal
// text.
func (d *DocGuard) Allow(path string, a docs.Access) (string, error) {
	v := d.Gate.JudgeAccess(path, gateAccess(a))
	if err := d.Gate.Allow(d.context(), v); err != nil {
		return "", err
	}
	return v.Real.Path, nil
}

// SameReal is the writer's re-check under its lock (G1.7).
func (d *DocGuard) SameReal(path, real string) bool { return d.Gate.SameReal(path, real) }

// gateAccess is docs' access as the gate names it (G1.5): a search of a
// path that is or holds a secret is read and secret.
func gateAccess(a docs.Access) gate.Access {
	switch a {
	case docs.SearchAccess:
		return gate.SearchAccess
	case docs.WriteAccess:
		return gate.WriteAccess
	}
	return gate.ReadAccess
}
