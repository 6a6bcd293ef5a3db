package shell

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// freezeKernel stops (SIGSTOP) every process of a kernel between its
// cells: the kernel's own, each descendant (a sandbox's pid namespace
// keeps every orphan below its init), and each process of its session,
// looked for again until a look finds no new one (a stopped process
// forks nothing). Nothing of a cell, a thread or a program it left, runs
// while no cell does. It gives the processes it stopped, for
// thawKernel.
func freezeKernel(pid int) []int {
	stopped := map[int]bool{}
	var order []int
	for round := 0; round < 64; round++ {
		found := false
		for _, p := range kernelProcesses(pid) {
			if stopped[p] {
				continue
			}
			if syscall.Kill(p, syscall.SIGSTOP) == nil {
				stopped[p] = true
				order = append(order, p)
				found = true
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

// thawKernel lets the processes freezeKernel stopped go on.
func thawKernel(pids []int) {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
}

// kernelProcesses are the kernel's process, its descendants and the
// processes of its session, from /proc.
func kernelProcesses(pid int) []int {
	des, err := os.ReadDir("/proc")
	if err != nil {
		return []int{pid}
	}
	parent := map[int]int{}
	var all []int
	sid := strconv.Itoa(pid) // the kernel leads a session of its own (Setsid)
	var inSession []int
	for _, de := range des {
		p, err := strconv.Atoi(de.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + de.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...: comm may hold spaces
		// and parentheses, so the fields count from its last ')'
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 4 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		parent[p] = pp
		all = append(all, p)
		if f[3] == sid {
			inSession = append(inSession, p)
		}
	}
	in := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !in[p] && in[parent[p]] {
				in[p], changed = true, true
			}
		}
	}
	for _, p := range inSession {
		in[p] = true
	}
	out := make([]int, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	return out
}
