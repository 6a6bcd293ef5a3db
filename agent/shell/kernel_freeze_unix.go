//go:build unix && !linux

package shell

import "syscall"

// freezeKernel stops the kernel's process group between its cells (no
// /proc here to find each process: a process that left the group runs
// on). It gives the group, negated, for thawKernel.
func freezeKernel(pid int) []int {
	if syscall.Kill(-pid, syscall.SIGSTOP) != nil {
		return nil
	}
	return []int{-pid}
}

// killKernel kills the kernel's process group.
func killKernel(_ int, g procGroup) { killGroupNow(g) }

// thawKernel lets the group go on (the caller holds the kernel, the
// group's leader, unreaped: the group's id is still its).
func thawKernel(_ int, pids []int) {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
}
