//go:build unix

package shell

import (
	"strings"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
)

// envNamesFold: environment names are case-sensitive on Unix.
const envNamesFold = false

// namesPath tells whether a command name is a path (found from the
// working directory, not on PATH).
func namesPath(name string) bool { return strings.Contains(name, "/") }

// lookCommand finds a command name on the judged PATH entries as the
// gate's classifier does (gate.Policy.LookCommand): an executable file
// of the name in the first kept entry.
func (x *run) lookCommand(_ string, _ expand.Environ, name string, entries []gate.PathEntry) (gate.Found, bool) {
	return x.policy.LookCommand(name, entries)
}
