package shell

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for eukhe on the Landlock path:
// re-run with ConfineArg, it applies the plan and execs the command.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ConfineArg {
		os.Exit(ConfineMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}
