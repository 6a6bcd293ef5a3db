package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/internal/procfs"
	"github.com/eukhe/eukhe/internal/sigdefault"
)

// No process of a step outlives it, under Landlock too. Bubblewrap runs each program as the init of its own pid namespace:
// when the program ends, the kernel ends every process left in it. Landlock
// has no such namespace, so `eukhe __confine` is a small supervisor: it
// makes itself the subreaper of what it starts, runs the confined program
// (a second `eukhe __confine --inner`, which applies the plan and execs
// it), and when the program ends it kills every process left below it —
// a daemon that double-forked or called setsid is reparented to the
// supervisor, not to init — and reaps them, before it exits with the
// program's status. Only then does the runner look for protected entries
// the step made. The supervisor itself killed with SIGKILL would leave
// them: the runner sends TERM first, which the supervisor leaves to the
// program, and every KILL after the grace (a stop's, a timeout's, the
// script's end: run.killLive, killKernel) stops the supervisor and kills
// its tree before it, then its group.

// innerArg marks the inner run of ConfineArg: apply the plan and exec.
const innerArg = "--inner"

// superviseConfined runs the inner confined program and cleans up after
// it; the status is the program's.
func superviseConfined(args []string) int {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not watch the program's processes (%v); nothing ran\n", args[1], err)
		return 126
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	// The plan is read here, and given to the inner run on a pipe of its
	// own: the supervisor judges the step's metadata calls by it
	// (confine_notify_linux.go), whose listener the inner run sends back
	// on a socket.
	planIn := os.NewFile(planFD, "landlock-plan")
	planData, err := io.ReadAll(planIn)
	planIn.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "eukhe %s: the Landlock plan cannot be read from descriptor %d (%v); nothing ran\n", ConfineArg, planFD, err)
		return 126
	}
	planR, planW, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: %v\n", args[1], err)
		return 126
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: %v\n", args[1], err)
		return 126
	}
	mine, theirs := os.NewFile(uintptr(pair[0]), "listener-recv"), os.NewFile(uintptr(pair[1]), "listener-send")
	cmd := exec.Command(self, append([]string{ConfineArg, innerArg}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{planR, theirs} // planFD, listenFD
	// TERM and INT reach the whole process group; the program decides.
	// Taken and dropped, not ignored: an ignored signal stays ignored in
	// the program, which then could not be interrupted (Ctrl-C, timeout
	// -s INT, a hangup) under Landlock as it is under bubblewrap.
	sigdefault.Drop(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: %v\n", args[1], err)
		return 126
	}
	planR.Close()
	theirs.Close()
	go func() {
		_, _ = planW.Write(planData)
		planW.Close()
	}()
	go serveMetadata(mine)
	err = cmd.Wait()
	killLeftovers()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintf(os.Stderr, "bash: %s: %v\n", args[1], err)
	return 126
}

// killLeftovers kills every process this subreaper has as a child (the
// program's orphans, and theirs as they are reparented in turn) and reaps
// them, for at most a few seconds.
func killLeftovers() {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		kids := procfs.Children(os.Getpid())
		for _, pid := range kids {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		reaped := false
		for {
			pid, err := unix.Wait4(-1, nil, unix.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
			reaped = true
		}
		if len(kids) == 0 && !reaped {
			if _, err := unix.Wait4(-1, nil, unix.WNOHANG, nil); errors.Is(err, unix.ECHILD) {
				return // no child left at all
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}
