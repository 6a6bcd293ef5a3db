//go:build !unix

package agent

import "os/exec"

// ownGroup: no process groups here; killGroup kills ssh alone.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
