package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAsAUser: CI runs as root, which file modes do not stop; under root,
// the tests of commits, crashes, recovery and sweeps run again as an
// ordinary user (uid 65534), as eukhe runs for its users.
func TestAsAUser(t *testing.T) {
	if os.Geteuid() != 0 {
		return // the tests run as a user already
	}
	if os.Getenv("EUKHE_TEST_AS_USER") != "" {
		return
	}
	tmp := t.TempDir()
	must(t, os.Chown(tmp, 65534, 65534))
	must(t, os.Chmod(filepath.Dir(tmp), 0o755))
	self, err := os.Executable()
	must(t, err)
	b, err := os.ReadFile(self) // the build directory is root's alone
	must(t, err)
	bin := filepath.Join(tmp, "docs.test")
	must(t, os.WriteFile(bin, b, 0o755))
	run := strings.Join([]string{
		"TestDisk_faults_at_every_step", "TestDisk_double_fault", "TestDisk_a_guarded_file",
		"TestRecovery_", "TestJournal_", "TestLaw_temp_sweep", "TestLaw_recovery", "TestDisk_kill9",
	}, "|")
	cmd := exec.Command(bin, "-test.run", "^("+run+")", "-test.count=1")
	cmd.Env = append(os.Environ(), "EUKHE_TEST_AS_USER=1", "TMPDIR="+tmp, "HOME="+tmp)
	cmd.Dir = tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests as uid 65534: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("the tests as uid 65534 ran nothing:\n%s", out)
	}
}
