package shell

import (
	"syscall"

	"github.com/eukhe/eukhe/internal/procfs"
)

// freezeKernel stops (SIGSTOP) every process of a kernel between its
// cells: the kernel's own, each descendant (a sandbox's pid namespace
// keeps every orphan below its init), and each process of its session,
// looked for again until a look finds no new one (a stopped process
// forks nothing). Nothing of a cell, a thread or a program it left, runs
// while no cell does. It gives the processes it stopped, for
// thawKernel.
func freezeKernel(pid int) []int {
	seen := map[int]bool{}
	var order []int
	for round := 0; round < 64; round++ {
		found := false
		for _, p := range kernelProcesses(pid) {
			if seen[p] {
				continue
			}
			// a new process, stopped or gone before the signal: either
			// way the next look is needed, since one that exited between
			// the look and the signal may have left a child this look did
			// not list (a fork-and-exit chain ran on past the freeze
			// when only a stop counted as new: CI, under load)
			seen[p], found = true, true
			if syscall.Kill(p, syscall.SIGSTOP) == nil {
				order = append(order, p)
			}
		}
		if !found {
			break
		}
	}
	return order
}

// killKernel kills the kernel's every process (kernelProcesses: a program
// a cell started in a session of its own too) and its group.
func killKernel(pid int, g procGroup) {
	for round := 0; round < 4; round++ {
		ps := kernelProcesses(pid)
		for _, p := range ps {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		if len(ps) <= 1 {
			break
		}
	}
	killGroupNow(g)
}

// thawKernel lets the processes freezeKernel stopped go on: those of
// them that are still the kernel's (pid's), so that a pid freed and given
// to another process since is never signalled. The caller holds the
// kernel unreaped (kernel.unreaped).
func thawKernel(pid int, pids []int) {
	now := map[int]bool{}
	for _, p := range kernelProcesses(pid) {
		now[p] = true
	}
	for _, p := range pids {
		if now[p] {
			_ = syscall.Kill(p, syscall.SIGCONT)
		}
	}
}

// kernelProcesses are the kernel's process, its descendants and the
// processes of its session, from /proc.
func kernelProcesses(pid int) []int {
	all := procfs.All()
	in := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !in[p.PID] && (in[p.PPID] || p.Session == pid) {
				in[p.PID], changed = true, true
			}
		}
	}
	out := make([]int, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	return out
}
