package shell

import (
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

func TestSandboxNoteLine(t *testing.T) {
	cases := []struct {
		name    string
		mech    Mechanism
		allowed gate.Effects
		writes  []string
		want    string // "" for no line
	}{
		{"a read-only refusal, split between writes", Bubblewrap, gate.Of(gate.Read, gate.Exec),
			[]string{"touch: x: Read-only file", " system\n"}, "approved with write+outside+protected"},
		{"write allowed: only outside or protected", Bubblewrap, gate.Of(gate.Read, gate.Write, gate.Exec),
			[]string{"Read-only file system"}, "approved with outside+protected"},
		{"ssh without its keys", Bubblewrap, gate.Of(gate.Read, gate.Exec, gate.Net),
			[]string{"git@host: Permission denied (publickey).\n"}, "approved with secret"},
		{"no network", Landlock, gate.Of(gate.Read, gate.Exec),
			[]string{"curl: (6) Could not resolve host: x\n"}, "approved with net"},
		{"Permission denied is the sandbox's only under Landlock", Bubblewrap, gate.Of(gate.Read, gate.Exec),
			[]string{"cat: x: Permission denied\n"}, ""},
		{"everything allowed: the refusal is the real thing", Bubblewrap, gate.Of(gate.AllEffects()...),
			[]string{"Read-only file system", "Connection refused"}, ""},
		{"a hidden path named", Bubblewrap, gate.Of(gate.Read, gate.Exec),
			[]string{"cat: /home/u/.ssh/id: No such file or directory\n"}, "approved with secret"},
	}
	for _, c := range cases {
		n := &sandboxNote{mech: c.mech, hidden: []string{"/home/u/.ssh"}}
		for _, e := range gate.AllEffects() {
			if !c.allowed.Has(e) && e != gate.Exec && e != gate.Read {
				n.missing = n.missing.With(e)
			}
		}
		for _, w := range c.writes {
			n.Write([]byte(w))
		}
		got := n.line()
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
