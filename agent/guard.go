package agent

import (
	"context"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// DocGuard is the documents gate (G1.6, G1.7) as docs.PathGuard: each
// access is judged once with the session's auto set; one that must ask
// goes up the session's chain; the access then uses the real path the
// gate judged. docs never imports gate: this adapter is the wiring.
//
// It keeps no call's state: the call's context comes first (mvdan.cc/sh's
// handler style), so a question is asked under the call that needs it and
// withdrawn when that call is cancelled.
type DocGuard struct {
	Gate *gate.DocumentsGate
}

// Allow judges path once, asks when the gate must (under ctx), and gives
// the real path the access then uses. The error is a *gate.Refusal: the
// seed's refusal text.
func (d *DocGuard) Allow(ctx context.Context, path string, a docs.Access) (string, error) {
	v := d.Gate.JudgeAccess(path, gateAccess(a))
	if err := d.Gate.Allow(ctx, v); err != nil {
		return "", err
	}
	return v.Real.Native(), nil
}

// SameReal is the writer's re-check under its lock (G1.7).
func (d *DocGuard) SameReal(path, real string) bool { return d.Gate.SameReal(path, real) }

// SecretName is the gate's (DocumentsGate.SecretName).
func (d *DocGuard) SecretName(path string) bool { return d.Gate.SecretName(path) }

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
