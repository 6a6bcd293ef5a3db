//go:build unix

package sigdefault

import (
	"os"
	"syscall"
)

// terminating are the signals the Go runtime leaves ignored when its
// process was started ignoring them (the hangup and the interrupt key):
// the others it takes itself, so its children get their defaults.
var terminating = []os.Signal{syscall.SIGHUP, syscall.SIGINT}
