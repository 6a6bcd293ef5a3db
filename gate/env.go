package gate

import (
	"maps"
	"os"
	"strconv"
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
	asThisSystem(m)
	return m
}

func (e *environ) clone() *environ {
	return &environ{vars: maps.Clone(e.vars)}
}

// Get is a variable's value, as mvdan's interpreter gives it (its
// lookupVar): the special parameters first — $# is 0, $@ and $* are
// empty, $0 is gosh, $1 to $9 are unset, $$ and $PPID are this process's
// pid and parent pid, as the run will see them — then the variables. A
// parameter whose value only the run knows ($?, $!, $-, $RANDOM,
// $SRANDOM) expands to a marker (runtimeMarker), so the step the user is
// shown keeps it as written ("echo $?", not "echo" nor "echo '$?'"); the
// shell's runtime check then judges the argv that really runs.
func (e *environ) Get(name string) expand.Variable {
	str := func(v string) expand.Variable { return expand.Variable{Set: true, Kind: expand.String, Str: v} }
	switch name {
	case "#":
		return str("0")
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}}
	case "$":
		return str(strconv.Itoa(os.Getpid()))
	case "PPID":
		return str(strconv.Itoa(os.Getppid()))
	case "0":
		return str("gosh")
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		return expand.Variable{}
	}
	if runtimeOnly[name] {
		return str(runtimeMarker(name))
	}
	if v, ok := e.vars[name]; ok {
		return v
	}
	return expand.Variable{}
}

// runtimeOnly are the parameters whose value is known only as the script
// runs.
var runtimeOnly = map[string]bool{"?": true, "!": true, "-": true, "RANDOM": true, "SRANDOM": true}

// runtimeMarker stands for a runtime-only parameter in an expanded word:
// its name between NUL bytes, which no real value holds. Visible shows it
// as $NAME; a word whose markers an expansion cut apart is not expanded
// at all (brokenMarker).
func runtimeMarker(name string) string { return "\x00" + name + "\x00" }

// brokenMarker reports whether a word holds a NUL that is not part of a
// whole runtime marker.
func brokenMarker(w string) bool {
	parts := strings.Split(w, "\x00")
	if len(parts)%2 == 0 {
		return true
	}
	for i := 1; i < len(parts); i += 2 {
		if !runtimeOnly[parts[i]] {
			return true
		}
	}
	return false
}

// asTheInterpreter sets what mvdan's interpreter sets before a script runs
// (interp.Runner.Reset), so the gate expands words as the run will: HOME
// when unset (the user's home), UID, EUID and GID when unset, IFS and
// OPTIND always.
func (e *environ) asTheInterpreter() {
	if _, ok := e.vars["HOME"]; !ok {
		if home, err := os.UserHomeDir(); err == nil {
			e.setString("HOME", home)
		}
	}
	for name, id := range map[string]int{"UID": os.Getuid(), "EUID": os.Geteuid(), "GID": os.Getgid()} {
		if _, ok := e.vars[name]; !ok {
			e.setString(name, strconv.Itoa(id))
		}
	}
	e.setString("IFS", " \t\n")
	e.setString("OPTIND", "1")
}

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
