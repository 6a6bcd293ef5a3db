//go:build unix

package sigdefault

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

func TestProgramsStartedGetTheSignalsATerminalGives(t *testing.T) {
	if !testkit.StartedIgnoringHangup() {
		testkit.RunIgnoringHangup(t, "^TestProgramsStartedGetTheSignalsATerminalGives$")
		return
	}
	for _, s := range terminating {
		if out, _ := kill(s).Output(); !strings.Contains(string(out), "SURVIVED") {
			t.Fatalf("the test's parent did not ignore %v: the case is not made (%q)", s, out)
		}
	}
	ForChildren()
	for _, s := range terminating {
		out, err := kill(s).Output()
		if strings.Contains(string(out), "SURVIVED") {
			t.Errorf("a program started after ForChildren still ignores %v", s)
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || !ee.Sys().(syscall.WaitStatus).Signaled() || ee.Sys().(syscall.WaitStatus).Signal() != s {
			t.Errorf("a program that sent itself %v: %v, want ended by it", s, err)
		}
	}
	// this process goes on ignoring them (it was started to)
	for _, s := range terminating {
		_ = syscall.Kill(os.Getpid(), s.(syscall.Signal))
	}
	time.Sleep(100 * time.Millisecond)
}

// kill is a program that sends itself s and says when it lives on.
func kill(s os.Signal) *exec.Cmd {
	name := map[os.Signal]string{syscall.SIGHUP: "HUP", syscall.SIGINT: "INT"}[s]
	return exec.Command("sh", "-c", "kill -"+name+" $$; echo SURVIVED")
}
