package testkit

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// startedIgnoringEnv marks a test process RunIgnoringHangup started.
const startedIgnoringEnv = "EUKHE_TEST_STARTED_IGNORING_HANGUP"

// StartedIgnoringHangup reports whether this test process is the one
// RunIgnoringHangup started, with the hangup and interrupt ignored.
func StartedIgnoringHangup() bool { return os.Getenv(startedIgnoringEnv) != "" }

// RunIgnoringHangup runs this package's tests matching pattern (a
// -test.run pattern) again, in a process started with SIGHUP and SIGINT
// ignored, as under nohup or a client that ignores them, and fails t with
// its output when they fail or none ran.
func RunIgnoringHangup(t *testing.T, pattern string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("sh is needed: ", err)
	}
	// the shell's trap '' is how a parent ignores a signal for its child
	cmd := exec.Command(sh, "-c", `trap '' HUP INT; exec "$0" -test.run="$1" -test.v -test.count=1`, os.Args[0], pattern)
	cmd.Env = append(os.Environ(), startedIgnoringEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") || strings.Contains(string(out), "--- FAIL") {
		t.Fatalf("in a process started ignoring the hangup and interrupt (%v):\n%s", err, out)
	}
}

// noDACEnv marks a test process RunWithoutDAC started.
const noDACEnv = "EUKHE_TEST_NO_DAC"

// RunWithoutDAC runs the test named name (a whole test name) again in a
// process without the capabilities that pass over permission bits, as
// any user who is not root runs eukhe (a directory of mode 000 cannot be
// opened), and fails t when it fails there. It reports true in that
// process, or when this one is not root: the caller then does the work.
func RunWithoutDAC(t *testing.T, name string) bool {
	t.Helper()
	if os.Getenv(noDACEnv) != "" || os.Geteuid() != 0 {
		return true
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		Missing(t, "setpriv (util-linux) is needed to drop root's permission override")
		return false
	}
	cmd := exec.Command(setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--",
		os.Args[0], "-test.run=^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), noDACEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Errorf("without the permission override (%v):\n%s", err, out)
	}
	return false
}
