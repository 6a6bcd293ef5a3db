package gate

import (
	"maps"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// environ is the environment the classifier expands words in: the
// session's variables plus what earlier steps of the script set. changed
// records a set made by an expansion itself (${X:=v}, $((X=1))).
type environ struct {
	vars    map[string]expand.Variable
	changed bool
}

func newEnviron(env map[string]string) *environ {
	e := &environ{vars: make(map[string]expand.Variable, len(env))}
	for k, v := range env {
		e.vars[k] = expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	return e
}

// EnvFromList reads "NAME=value" pairs, as os.Environ gives them.
func EnvFromList(pairs []string) map[string]string {
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if k, v, ok := strings.Cut(p, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

func (e *environ) clone() *environ {
	return &environ{vars: maps.Clone(e.vars)}
}

// Get is a variable's value. A parameter whose value only the run knows
// ($?, $$, $!, $RANDOM, …) stands as itself, so the step the user is
// shown keeps it ("echo $?", not "echo"); the shell's runtime check then
// compares the argv that really runs.
func (e *environ) Get(name string) expand.Variable {
	if v, ok := e.vars[name]; ok {
		return v
	}
	if runtimeOnly[name] {
		return expand.Variable{Set: true, Kind: expand.String, Str: "$" + name}
	}
	return expand.Variable{}
}

// runtimeOnly are the parameters whose value is known only as the script runs.
var runtimeOnly = map[string]bool{"?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true,
	"SECONDS": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true, "LINENO": true, "BASHPID": true}

func (e *environ) Each(f func(string, expand.Variable) bool) {
	for k, v := range e.vars {
		if !f(k, v) {
			return
		}
	}
}

func (e *environ) Set(name string, vr expand.Variable) error {
	e.changed = true
	if !vr.IsSet() {
		delete(e.vars, name)
		return nil
	}
	if vr.Kind == expand.KeepValue {
		old := e.vars[name]
		old.Exported = old.Exported || vr.Exported
		e.vars[name] = old
		return nil
	}
	e.vars[name] = vr
	return nil
}

func (e *environ) setString(name, value string) {
	e.vars[name] = expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: value}
}

func (e *environ) str(name string) string { return e.vars[name].String() }
