package gate

import (
	"context"
	"path/filepath"
)

// Verdict is the documents gate's judgement of one access (G1.6): the
// resolution it judged, the path's class, the access's effects, and
// whether it must ask before it runs.
type Verdict struct {
	Real    RealPath
	Class   Class
	Access  Access
	Effects Effects
	Asks    bool
}

// JudgeReal judges a resolution as given: it never resolves again, since
// a second resolution can lose a loop (G1.6).
func (p *Policy) JudgeReal(r RealPath, a Access, auto AutoSet) Verdict {
	var c Class
	if a == WriteAccess {
		c = p.ClassWrite(r)
	} else {
		c = p.readClass(r)
	}
	effs := AccessEffects(a, c, p.HoldsSecret(r))
	return Verdict{Real: r, Class: c, Access: a, Effects: effs, Asks: auto.Asks(effs)}
}

// DocumentsGate is the gate of the document tools (G1.6, G1.7): docs is
// handed one through a small interface of its own (Judge, Allow, SameReal),
// so gate and docs never import each other. Auto gives the auto set in
// force; Chain is where questions go, a route.Chain (none: each access
// that must ask does not run, unanswered).
type DocumentsGate struct {
	Policy *Policy
	Dir    string // the directory relative paths are under
	Auto   func() AutoSet
	Chain  Router
}

func (g *DocumentsGate) auto() AutoSet {
	if g.Auto == nil {
		return DefaultAuto()
	}
	return g.Auto()
}

// Judge resolves path once and judges that resolution. The access then
// occurs on Verdict.Real.Path, never on path again.
func (g *DocumentsGate) Judge(path string, write bool) Verdict {
	a := ReadAccess
	if write {
		a = WriteAccess
	}
	return g.JudgeAccess(path, a)
}

// JudgeAccess is Judge for any access, searches included.
func (g *DocumentsGate) JudgeAccess(path string, a Access) Verdict {
	r := g.Policy.Resolve(g.Dir, path)
	return g.Policy.JudgeReal(r, a, g.auto())
}

// Allow is nil when the judged access may run: unasked within the auto
// set, or approved. Else it is a *Refusal whose text the model gets.
func (g *DocumentsGate) Allow(ctx context.Context, v Verdict) error {
	if !v.Asks {
		return nil
	}
	what := v.Access.String() + " " + Visible(v.Real.Native())
	if g.Chain == nil { // no one to ask: unanswered, as an empty route.Chain
		return &Refusal{Verb: what, Effects: v.Effects, Answer: Unanswered, InCell: IsInCell(ctx), Auto: g.auto().Effects()}
	}
	a := g.Chain.Ask(ctx, Question{What: what, Effects: v.Effects, Reals: []string{v.Real.Path}})
	if a.Runs() {
		return nil
	}
	return &Refusal{Verb: what, Effects: v.Effects, Answer: a, Hint: g.Chain.Hint(), Unheard: g.Chain.Unheard(), InCell: IsInCell(ctx), Auto: g.auto().Effects()}
}

// SecretName tells whether the file at path is another name of a secret
// file (Policy.ClassRead finds the names a path does not show): a tree
// search leaves it out. It never asks.
func (g *DocumentsGate) SecretName(path string) bool {
	return g.Policy.ClassRead(g.Policy.Resolve(g.Dir, path)) == ClassSecret
}

// SameReal is the writer's check under its lock (G1.7): path resolves
// again, unlooped, to real. When it does not (a link was made or moved
// since the gate judged it), the write must write nothing.
func (g *DocumentsGate) SameReal(path, real string) bool {
	r := g.Policy.Resolve(g.Dir, path)
	return !r.Looped && filepath.Clean(r.Native()) == filepath.Clean(real)
}
