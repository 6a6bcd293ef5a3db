//go:build unix

package shell

import "syscall"

// killGroupNow kills a kernel's process group at once: the kernel was
// asked to stop (an interrupt) and did not, or is being replaced.
func killGroupNow(g procGroup) { _ = syscall.Kill(-g, syscall.SIGKILL) }
