//go:build unix

package agent

import (
	"os/exec"
	"syscall"

	"github.com/eukhe/eukhe/internal/sigdefault"
)

// ownGroup starts cmd in a process group of its own, so a kill reaches
// every process it started, with the hangup and interrupt at their
// defaults whatever eukhe was started ignoring.
func ownGroup(cmd *exec.Cmd) {
	sigdefault.ForChildren()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's whole process group.
func killGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
