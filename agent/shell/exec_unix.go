//go:build unix

package shell

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/internal/sigdefault"
)

// procGroup is one external process's group: its process group id (the
// pid of its leader, in a new session).
type procGroup = int

// groupAttr starts a process in a new session: a new process group (its
// id is the pid) with no controlling terminal, so the group is killed
// whole, and no program can read or stop on the server's terminal. The
// hangup and interrupt reach it at their defaults, whatever eukhe was
// started ignoring (under nohup, a step's program could not be
// interrupted).
func groupAttr() *syscall.SysProcAttr {
	sigdefault.ForChildren()
	return &syscall.SysProcAttr{Setsid: true}
}

// startGroup is the group of a process just started: its pid.
func startGroup(p *os.Process) procGroup { return p.Pid }

// waited is what is done once a process was waited for: its group's id
// stays for killGroups while something the process left is in it; an
// empty group's id is forgotten (pruneGroups).
func (x *run) waited(procGroup) { x.pruneGroups() }

// pruneGroups forgets the groups with no process left: a group's id is
// its leader's pid, free once the group is empty, and a stop or timeout
// much later must not signal another program's group that got it.
func (x *run) pruneGroups() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for g := range x.groups {
		if syscall.Kill(-g, 0) == syscall.ESRCH {
			delete(x.groups, g)
		}
	}
}

// killGroups sends TERM to every process group the script started, and
// after the grace kills each program still running with its tree
// (killLive), then KILL to each group that still has a process.
func (x *run) killGroups() {
	x.mu.Lock()
	groups := make([]int, 0, len(x.groups))
	for g := range x.groups {
		groups = append(groups, g)
	}
	x.mu.Unlock()
	if len(groups) == 0 {
		return
	}
	for _, g := range groups {
		_ = syscall.Kill(-g, syscall.SIGTERM)
	}
	time.AfterFunc(x.grace, func() {
		x.killLive()
		for _, g := range groups {
			if syscall.Kill(-g, 0) == nil {
				_ = syscall.Kill(-g, syscall.SIGKILL)
			}
		}
	})
}

// killGroupsNow sends KILL to every process group the script started
// that still has a process.
func (x *run) killGroupsNow() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for g := range x.groups {
		if syscall.Kill(-g, 0) == nil {
			_ = syscall.Kill(-g, syscall.SIGKILL)
		}
	}
}

// killGroupNow kills a process group at once: a kernel that did not stop
// at its interrupt, or is being replaced.
func killGroupNow(g procGroup) { _ = syscall.Kill(-g, syscall.SIGKILL) }

// dupFile is a second descriptor of f, closed on exec.
func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var nfd int
	var derr error
	if err := rc.Control(func(fd uintptr) {
		nfd, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}
