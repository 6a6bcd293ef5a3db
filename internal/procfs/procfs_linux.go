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
	// Zombie: it ended and its parent has not reaped it yet (state Z).
	Zombie bool
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
	p := Proc{PID: pid, Zombie: f[0] == "Z"}
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGRP, _ = strconv.Atoi(f[2])
	p.Session, _ = strconv.Atoi(f[3])
	return p, true
}

// Alive reports whether process pid runs (it is there and no zombie).
func Alive(pid int) bool {
	p, ok := Of(pid)
	return ok && !p.Zombie
}
