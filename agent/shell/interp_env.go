package shell

import (
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// interpEnv is the script's environment as the interpreter reads it, but
// for one read. The interpreter (mvdan.cc/sh interp) opens a path itself,
// past the open handler (run.open: the runtime re-check, the no-follow
// open), when the path is in its temporary directory and its name starts
// "sh-interp-": the name it gives the FIFOs of a process substitution. It
// takes that directory from TMPDIR once, when it resets. A step could
// plant a link of that name there (the session's or the user's temporary
// directory), and a later redirection to it would open a secret in
// eukhe's own process, unjudged (the twenty-seventh red team's; outside
// the step grammar too, the twenty-eighth's). So while the interpreter
// resets, TMPDIR names fifos: noFifoDir, a directory below a file, which
// cannot exist, so no path the shortcut takes can open; or, for a script
// with a process substitution, a directory of the run's own, made for
// it with a name no step is told (run.execute). The script sees its own
// TMPDIR, as before and after.
type interpEnv struct {
	expand.Environ
	fifos     string
	resetting atomic.Bool
}

// Get is the environment's variable, but TMPDIR while the interpreter
// resets.
func (e *interpEnv) Get(name string) expand.Variable {
	if e.resetting.Load() && strings.EqualFold(name, "TMPDIR") {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: e.fifos}
	}
	return e.Environ.Get(name)
}

// hasProcSubst tells whether the script holds a process substitution
// (<(…) or >(…)), the one thing the interpreter makes FIFOs for.
func hasProcSubst(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.ProcSubst); ok {
			found = true
		}
		return !found
	})
	return found
}
