//go:build !linux

package shell

import (
	"fmt"
	"os"
)

// ConfineMain refuses where Landlock does not exist: Detect never picks
// Landlock here, so eukhe never re-runs itself with ConfineArg; one run
// by hand gets 126, as a command that cannot run.
func ConfineMain(args []string) int {
	fmt.Fprintf(os.Stderr, "eukhe %s: Landlock is Linux's; there is no sandbox to apply on this system\n", ConfineArg)
	return 126
}
