//go:build unix

package agent

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so a kill reaches
// every process it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's whole process group.
func killGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
