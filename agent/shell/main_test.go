package shell

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for eukhe on the Landlock path:
// re-run with ConfineArg, it applies the plan and execs the command. Run
// with probeSyscallsArg, it is a confined program that tries the system
// calls the Unix-socket filter refuses, and prints what each gave.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ConfineArg {
		os.Exit(ConfineMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == probeSyscallsArg {
		probeSyscalls()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// probeSyscallsArg makes the test binary run probeSyscalls.
const probeSyscallsArg = "__probe_syscalls"
