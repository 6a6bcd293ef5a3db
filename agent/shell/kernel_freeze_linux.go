package shell

import (
	"syscall"
	"time"

	"github.com/eukhe/eukhe/internal/procfs"
)

// freezeKernel stops (SIGSTOP) every process of a kernel between its
// cells: the kernel's own, each descendant (kernelTree: a sandbox's pid
// namespace, or the Landlock supervisor as subreaper, keeps every orphan
// below it), and each process of its session,
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
	zombies := map[int]bool{}
	groups := map[int]bool{}
	var order []int
	// Each look finds the kernel's processes afresh and stops every one
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
		quiet++
		stop := func(p procfs.Proc) {
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
		// the kernel's process, then its tree, each stopped as the
		// children files name it (kernelTree)
		tree := map[int]bool{pid: true}
		if p, ok := procfs.Of(pid); ok && !p.Zombie {
			stop(p)
		}
		if kernelTree(pid, zombies, func(p procfs.Proc) {
			tree[p.PID] = true
			stop(p)
		}) > 0 {
			quiet, chasing = 0, true
		}
		// then, from a listing, the whole groups, and what else is of
		// the kernel's session
		all := procfs.All()
		mine := kernelSet(pid, all)
		for p := range tree {
			mine[p] = true
		}
		for _, g := range wholeGroups(all, mine) {
			if !groups[g] {
				groups[g] = true
				_ = syscall.Kill(-g, syscall.SIGSTOP)
			}
		}
		for _, p := range all {
			if mine[p.PID] && !tree[p.PID] && !p.Zombie {
				stop(p)
			}
		}
	}
	return order
}

// kernelTree calls found with each live process below pid, walking down
// by the children files (procfs.Children): each process as soon as its
// parent's file names it, before the next file is read. A listing of
// /proc reads one process at a time and missed a link of a fork-and-exit
// chain whose every link starts a session of its own, together with the
// child it left, whenever the link exited between two reads (under load,
// the chain ran on past the freeze); the kernel's process, its
// subreaper, is stopped here, so its children file, where each orphan
// comes last, is read exactly. A child in zombies (one an earlier look
// found ended and unreaped: it stays so until its parent reaps it, and
// its pid is not given again) is passed over unread, and a new one is
// added there; fresh counts the children no look named before, ended or
// not: an ended child is a fork too (the thirtieth red team's ballast of
// sixty unreaped children made each look read them all before the live
// link at the end of the file, gone by then, and the look counted quiet).
func kernelTree(pid int, zombies map[int]bool, found func(procfs.Proc)) (fresh int) {
	visited := map[int]bool{pid: true}
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		for _, c := range procfs.Children(queue[0]) {
			if visited[c] {
				continue
			}
			visited[c] = true
			if zombies[c] {
				continue
			}
			p, ok := procfs.Of(c)
			if !ok {
				continue
			}
			if p.Zombie {
				zombies[c] = true
				fresh++
				continue
			}
			found(p)
			queue = append(queue, c)
		}
	}
	return fresh
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

// killKernel kills the kernel's every process and its group: its whole
// tree first (killTree), then what else is of its session (kernelSet: a
// program a cell started in a session of its own, when the kernel's
// process is no subreaper), the kernel's own process last.
func killKernel(pid int, g procGroup) {
	// stopped, the kernel's process (the sandbox's subreaper) reaps
	// nothing while its tree is killed: every orphan stays its child, a
	// zombie keeps its pid, and its children file only grows
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	killTree(pid, time.Now().Add(5*time.Second))
	for round := 0; round < 16; round++ {
		all := procfs.All()
		mine := kernelSet(pid, all)
		for _, grp := range wholeGroups(all, mine) {
			_ = syscall.Kill(-grp, syscall.SIGKILL)
		}
		left := 0
		for _, p := range all {
			if mine[p.PID] && p.PID != pid && !p.Zombie && syscall.Kill(p.PID, syscall.SIGKILL) == nil {
				left++
			}
		}
		if left == 0 {
			break
		}
		killTree(pid, time.Now().Add(time.Second))
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	killGroupNow(g)
}

// killTree kills every process below root, which is stopped: each pass
// walks the tree by the children files (procfs.Children), kills each
// process it has not killed before, then waits until every process it
// killed has ended (a zombie, or gone), and it ends after a pass that
// found none new (or at the deadline).
//
// A pass that finds none new leaves no process below root alive. Every
// process killed before it had ended when it began, so each had passed
// its children on to root (the kernel reparents an ended process's
// children, to the nearest subreaper above it, before it is a zombie);
// a process alive then has a chain of live parents up to root, and the
// top one of that chain is root's child, in root's children file (root
// reaps nothing, so that file is read exactly), and not killed before, as
// it lives: the pass would have found it. A process a kill reaches
// forks nothing more (SIGKILL aborts a fork under way), so killing as
// found outruns a fork-and-exit chain whose every link starts a session
// of its own, where the earlier rounds of /proc listings chased it: a
// listing reads one process at a time, and missed the link that exited
// between two reads together with the child it left (the twenty-seventh
// red team's, under CI's load).
func killTree(root int, deadline time.Time) {
	killed := map[int]bool{}
	ended := map[int]bool{}
	for time.Now().Before(deadline) {
		fresh := false
		for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
			for _, c := range procfs.Children(queue[0]) {
				if !killed[c] {
					_ = syscall.Kill(c, syscall.SIGKILL)
					killed[c], fresh = true, true
				}
				if !ended[c] {
					queue = append(queue, c)
				}
			}
		}
		waitEnded(killed, ended, deadline)
		if !fresh {
			return
		}
	}
}

// waitEnded waits until each process of killed has ended (or the
// deadline), marking it in ended.
func waitEnded(killed, ended map[int]bool, deadline time.Time) {
	for {
		left := false
		for p := range killed {
			if ended[p] {
				continue
			}
			if q, ok := procfs.Of(p); !ok || q.Zombie {
				ended[p] = true
				continue
			}
			left = true
		}
		if !left || !time.Now().Before(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
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
