//go:build !windows

package gate

import (
	"io/fs"
	"strings"
)

// NamesPath reports whether a command name is a path (found from the
// working directory, never on PATH).
func NamesPath(name string) bool { return strings.Contains(name, "/") }

// programIn is the program a PATH entry holds for the name: the file of
// that name, when it is executable. PATHEXT means nothing here.
func (p *Policy) programIn(entry, name, _ string) (string, bool) {
	cand := strings.TrimSuffix(entry, "/") + "/" + name
	return cand, p.executable(cand)
}

// runnableMode reports whether a file of this mode runs: an execute bit.
func runnableMode(m fs.FileMode) bool { return m&0o111 != 0 }

// scriptProgram reports whether the program found runs as a script the
// system picks by its extension: never here (a #! script is the
// program its name says, as a binary is).
func scriptProgram(string) bool { return false }
