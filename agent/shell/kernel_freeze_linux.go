package shell

import (
	"syscall"
	"time"

	"github.com/eukhe/eukhe/internal/procfs"
)

// freezeKernel stops (SIGSTOP) every process of a kernel between its
// cells: the kernel's own, each descendant (a sandbox's pid namespace
// keeps every orphan below its init), and each process of its session,
// looked for again until two looks find every one stopped (a stopped
// process forks nothing). Nothing of a cell, a thread or a program it left, runs
// while no cell does. It gives the processes it stopped, for
// thawKernel.
//
// Each look first stops, whole, every process group all of whose members
// are the kernel's (never one that holds another process: the sandbox
// that runs the kernel, or eukhe): the kernel delivers a group's signal
// to a fork in progress too (the fork starts again), so a fork-and-exit
// chain in one group stops at once, where stopping one process at a time
// only chases it, each link gone before its signal (a CI rehearsal ran
// out of rounds under load and the chain ran on).
func freezeKernel(pid int) []int {
	seen := map[int]bool{}
	groups := map[int]bool{}
	var order []int
	// Each look lists the kernel's processes afresh and stops every one
	// that is not stopped: a new one, or one another continued (SIGCONT)
	// after it was stopped (the twenty-fifth red team's). It ends when
	// two looks in a row find every process of the kernel stopped or
	// gone. One is not enough: a look reads one process at a time, so a
	// process read as stopped may be continued by one read later, which
	// its own stop then reaches; and a process continued after a look may
	// fork one that only a fresh listing finds (the twenty-seventh red
	// team's: the looks after the first ranged over the processes found
	// so far, and a program forked then ran on between cells). A stop
	// takes effect when the process next runs, so the looks that find no
	// new process are a moment apart.
	for round, quiet, chasing := 0, 0, true; round < 256 && quiet < 2; round++ {
		if !chasing {
			// no new process in the last look: wait a moment for the
			// stops to land. Never while new ones appear: a link of a
			// fork-and-exit chain forks and exits in that moment, and
			// its child, orphaned in a session of its own, is no longer
			// the kernel's by any look
			time.Sleep(time.Millisecond)
		}
		chasing = false
		all := procfs.All()
		mine := kernelSet(pid, all)
		for _, g := range wholeGroups(all, mine) {
			if !groups[g] {
				groups[g] = true
				_ = syscall.Kill(-g, syscall.SIGSTOP)
			}
		}
		quiet++
		for _, p := range all {
			if !mine[p.PID] || p.Zombie {
				continue
			}
			if !seen[p.PID] {
				// a new process: the next look is needed, since one that
				// exited between the look and the signal may have left a
				// child this look did not list (a fork-and-exit chain ran
				// on past the freeze when only a stop counted as new)
				seen[p.PID] = true
				order = append(order, p.PID)
				quiet, chasing = 0, true
			}
			if !p.Stopped {
				_ = syscall.Kill(p.PID, syscall.SIGSTOP)
				quiet = 0
			}
		}
	}
	return order
}

// wholeGroups are the process groups of all whose every member is in
// mine, never this process's own.
func wholeGroups(all []procfs.Proc, mine map[int]bool) []int {
	own := syscall.Getpgrp()
	whole := map[int]bool{}
	for _, p := range all {
		if mine[p.PID] && p.PGRP > 0 && p.PGRP != own {
			whole[p.PGRP] = true
		}
	}
	for _, p := range all {
		if !mine[p.PID] {
			delete(whole, p.PGRP)
		}
	}
	out := make([]int, 0, len(whole))
	for g := range whole {
		out = append(out, g)
	}
	return out
}

// killKernel kills the kernel's every process (kernelProcesses: a program
// a cell started in a session of its own too) and its group. They are
// stopped first, as between cells (a stopped process forks nothing), then
// killed: each whole group at once, then each process, the kernel's own
// process (the sandbox's subreaper, to which an orphan is reparented)
// last, so that the next look still finds what a link of a
// fork-and-exit chain left. Killed one at a time from the start, such a
// chain outran the kill and, its anchor gone, ran on orphaned to init
// after the session (CI's tests, under load).
func killKernel(pid int, g procGroup) {
	freezeKernel(pid)
	for round := 0; round < 16; round++ {
		all := procfs.All()
		mine := kernelSet(pid, all)
		for _, grp := range wholeGroups(all, mine) {
			_ = syscall.Kill(-grp, syscall.SIGKILL)
		}
		left := 0
		for p := range mine {
			if p != pid && syscall.Kill(p, syscall.SIGKILL) == nil {
				left++
			}
		}
		if left == 0 {
			break
		}
		// what this round killed may have been continuing the rest (a
		// process that sends SIGCONT to the others beats the freeze as
		// long as it runs): stop what is left again, now that it is
		// gone, before the next round kills it (CI, under load, saw a
		// fork-and-exit chain outrun eight rounds of kills alone)
		freezeKernel(pid)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
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
	in := kernelSet(pid, procfs.All())
	out := make([]int, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	return out
}

// kernelSet is kernelProcesses of the processes all.
func kernelSet(pid int, all []procfs.Proc) map[int]bool {
	in := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !in[p.PID] && (in[p.PPID] || p.Session == pid) {
				in[p.PID], changed = true, true
			}
		}
	}
	return in
}
