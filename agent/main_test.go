package agent

import (
	"os"
	"testing"

	"github.com/eukhe/eukhe/agent/shell"
)

// TestMain lets the test binary stand in for eukhe on the Landlock path
// (where bubblewrap is missing): re-run with shell.ConfineArg, it applies
// the plan and execs the command, as eukhe does. Without it the re-run
// would run this package's tests again as the confined program.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == shell.ConfineArg {
		os.Exit(shell.ConfineMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}
