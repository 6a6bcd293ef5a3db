package procfs

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Proc is one process as /proc/PID/stat has it.
type Proc struct {
	PID, PPID, PGRP, Session int
	// Zombie: it ended and its parent has not reaped it yet (state Z,
	// and no thread of it lives).
	Zombie bool
	// Stopped: a signal stopped it (state T; of every thread that lives,
	// when its main thread ended).
	Stopped bool
}

// All are the processes /proc lists now (a process that ends while they
// are read is left out); nil without /proc.
func All() []Proc {
	des, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]Proc, 0, len(des))
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil {
			continue
		}
		if p, ok := Of(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// Of is process pid as /proc has it now; false when there is none.
func Of(pid int) (Proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, false
	}
	// pid (comm) state ppid pgrp session ...: comm may hold spaces
	// and parentheses, so the fields count from its last ')'
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 4 {
		return Proc{}, false
	}
	p := Proc{PID: pid, Zombie: f[0] == "Z", Stopped: f[0] == "T"}
	if p.Zombie {
		// Z is the main thread's state: a process whose main thread
		// ended (pthread_exit) runs on in its other threads (the
		// twenty-eighth red team's ran on past a freeze that skipped it)
		p.Zombie, p.Stopped = threadsState(pid)
	}
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGRP, _ = strconv.Atoi(f[2])
	p.Session, _ = strconv.Atoi(f[3])
	return p, true
}

// threadsState is the state of a process whose main thread is a zombie,
// from its threads: ended when none of them lives, stopped when every one
// that lives is stopped.
func threadsState(pid int) (ended, stopped bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	des, err := os.ReadDir(dir)
	if err != nil {
		return true, false
	}
	live, stoppedN := 0, 0
	for _, de := range des {
		b, err := os.ReadFile(dir + de.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+3 > len(b) {
			continue
		}
		switch b[i+2] {
		case 'Z', 'X':
		case 'T', 't':
			live++
			stoppedN++
		default:
			live++
		}
	}
	return live == 0, live > 0 && stoppedN == live
}

// Alive reports whether process pid runs (it is there and no zombie).
func Alive(pid int) bool {
	p, ok := Of(pid)
	return ok && !p.Zombie
}
