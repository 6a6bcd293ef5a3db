//go:build !linux && !darwin

package shell

import (
	"fmt"

	"github.com/eukhe/eukhe/gate/confine"
)

// wrapLaunch has no mechanism to put around a program on this system:
// Detect gives none here, so sandbox returns before it and this is not
// reached. Should it be, the process is refused, never run unconfined.
// macOS's Seatbelt will have a sandbox_darwin.go of its own
// (detect_darwin.go).
func wrapLaunch(l *launch, c Confinement, s confine.Sandbox, path string, argv []string, dir string, noUnix bool) string {
	return fmt.Sprintf("bash: %s: not run: the %s sandbox is not built for this system\n", argv[0], c.Mechanism)
}
