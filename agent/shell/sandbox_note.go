package shell

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/eukhe/eukhe/gate"
)

// A failure inside the sandbox reads like the real thing (Read-only file
// system, Permission denied, Network is unreachable); the pipeline's
// reply then adds one line saying the sandbox refused it and which
// effect would allow it, so the agent asks the user instead of retrying.

// sandboxSigns are the error texts a refusal of the sandbox shows, each
// with the effects that could have allowed it.
var sandboxSigns = []struct {
	text    string
	effects gate.Effects
	mech    Mechanism // "" for any
}{
	{"Read-only file system", gate.Of(gate.Write, gate.Outside, gate.Protected), ""},
	{"Permission denied", gate.Of(gate.Write, gate.Outside, gate.Protected, gate.Secret, gate.Net), Landlock},
	{"Operation not permitted", gate.Of(gate.Write, gate.Outside, gate.Protected, gate.Secret, gate.Net), Landlock},
	// ssh finds no key and no known host in a hidden ~/.ssh.
	{"Permission denied (publickey", gate.Of(gate.Secret), ""},
	{"Host key verification failed", gate.Of(gate.Secret), ""},
	{"Network is unreachable", gate.Of(gate.Net), ""},
	{"Could not resolve host", gate.Of(gate.Net), ""},
	{"Temporary failure in name resolution", gate.Of(gate.Net), ""},
	{"Name or service not known", gate.Of(gate.Net), ""},
	{"Connection refused", gate.Of(gate.Net), ""},
}

// sandboxNote is what the processes of the running pipeline were allowed,
// and what its output showed.
type sandboxNote struct {
	mu      sync.Mutex
	mech    Mechanism
	missing gate.Effects // effects some confined process was not allowed
	hidden  []string
	seen    []string // texts of sandboxSigns and hidden paths the output showed
	tail    []byte
	renamed []string // protected entries a process made, renamed away
	// narrowed are the paths an approval of secret or protected was
	// narrowed to (sandbox.go), for a process that ran so
	narrowed []string
}

// made records the protected entries a process made and refuseMade
// renamed.
func (n *sandboxNote) made(renamed []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.renamed = append(n.renamed, renamed...)
}

// noteSandbox records a process the pipeline starts.
func (x *run) noteSandbox(l launch, allowed gate.Effects) {
	if l.confined == "" {
		return
	}
	n := x.currentNote()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.mech = l.confined
	for _, e := range gate.AllEffects() {
		if !allowed.Has(e) && e != gate.Exec && e != gate.Read {
			n.missing = n.missing.With(e)
		}
	}
	for _, h := range l.hidden {
		if !contains(n.hidden, h) {
			n.hidden = append(n.hidden, h)
		}
	}
	for _, p := range l.narrowedTo {
		if !contains(n.narrowed, p) {
			n.narrowed = append(n.narrowed, p)
		}
	}
}

func (x *run) currentNote() *sandboxNote {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.note == nil {
		x.note = &sandboxNote{}
	}
	return x.note
}

// Write watches the pipeline's output for the signs of a refusal; a sign
// split between two writes is still seen.
func (n *sandboxNote) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	buf := append(n.tail, p...)
	for _, s := range sandboxSigns {
		if !contains(n.seen, s.text) && bytes.Contains(buf, []byte(s.text)) {
			n.seen = append(n.seen, s.text)
		}
	}
	for _, h := range n.hidden {
		if !contains(n.seen, h) && bytes.Contains(buf, []byte(h)) {
			n.seen = append(n.seen, h)
		}
	}
	const keep = 256
	if len(buf) > keep {
		buf = buf[len(buf)-keep:]
	}
	n.tail = append(n.tail[:0], buf...)
	return len(p), nil
}

// line is the line the reply gets, or "".
func (n *sandboxNote) line() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.mech == "" {
		return ""
	}
	var need gate.Effects
	var signs []string
	for _, s := range sandboxSigns {
		if contains(n.seen, s.text) && (s.mech == "" || s.mech == n.mech) {
			if e := s.effects & n.missing; !e.Empty() {
				need |= e
				signs = append(signs, s.text)
			}
		}
	}
	for _, h := range n.hidden {
		if contains(n.seen, h) && n.missing.Has(gate.Secret) {
			need = need.With(gate.Secret)
			signs = append(signs, h+" is hidden")
		}
	}
	made := ""
	if len(n.renamed) > 0 {
		made = fmt.Sprintf("[sandbox (%s): the step made or replaced %s without protected or secret, where a repository's hooks "+
			"and config, an editor's settings, a PATH program or a credential store's file lie (or a link a store's path "+
			"goes through); it could run programs as the user, so it was renamed out of use. A step approved with "+
			"protected (secret for a store) may make it: ask the user]\n",
			n.mech, strings.Join(n.renamed, ", "))
	}
	if need.Empty() {
		return made
	}
	if len(n.narrowed) > 0 {
		// the refusal is most likely the narrowing's: asking for the
		// same effects again lends no more
		return made + fmt.Sprintf("[sandbox (%s): the step's approval covered only %s, and the sandbox refused it the rest (%s): "+
			"a step that names the path it needs is asked about that path]\n",
			n.mech, strings.Join(n.narrowed, ", "), strings.Join(signs, "; "))
	}
	return made + fmt.Sprintf("[sandbox (%s): the step ran without %s, and the sandbox refused it (%s); "+
		"a step approved with %s would be allowed it: ask the user to approve it rather than retrying it as it is]\n",
		n.mech, n.missing, strings.Join(signs, "; "), need)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
