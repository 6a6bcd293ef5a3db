//go:build unix

package shell

import "strings"

// envNamesFold: environment names are case-sensitive on Unix.
const envNamesFold = false

// namesPath tells whether a command name is a path (found from the
// working directory, not on PATH).
func namesPath(name string) bool { return strings.Contains(name, "/") }
