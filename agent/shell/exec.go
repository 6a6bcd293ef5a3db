package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/eukhe/eukhe/gate"
	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/interp"
)

// execMiddleware is the last exec handler: it runs builtins the call
// handler marked, and starts every other command as an external process.
// It records each step's exit status.
func (x *run) execMiddleware(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		var err error
		if args[0] == builtinMarker {
			err = hc.Builtin(ctx, args[1:])
		} else {
			err = x.external(ctx, hc, args)
		}
		x.mu.Lock()
		if step, ok := x.stepAt(hc.Pos); ok {
			x.status[step] = handlerStatus(err)
		}
		x.mu.Unlock()
		return err
	}
}

// handlerStatus is the exit status a handler's error stands for.
func handlerStatus(err error) int {
	if err == nil {
		return 0
	}
	if s, ok := exitStatus(err); ok {
		return int(s)
	}
	// HandlerContext.Builtin gives a builtin's status as an error of an
	// unexported type; its text is the only way to it.
	var n int
	if _, scanErr := fmt.Sscanf(err.Error(), "builtin exit status %d", &n); scanErr == nil {
		return n
	}
	return -1
}

// external runs one program, found with the interpreter's PATH lookup, in
// a session (and so a process group) of its own, with the shell's
// exported variables, inside the sandbox of what its step may do
// (sandbox.go); a git read step runs hardened. A process ended by a
// signal gives 128+N (SIGPIPE: 141).
func (x *run) external(ctx context.Context, hc interp.HandlerContext, args []string) error {
	pr, err := x.lookProgram(hc.Dir, hc.Env, args[0])
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return interp.ExitStatus(127)
	}
	path := pr.path
	x.mu.Lock()
	step, inStep := x.stepAt(hc.Pos)
	allowed := x.allowedAt(step, inStep)
	x.mu.Unlock()
	if pr.found.Exec && !allowed.Has(gate.Exec) {
		// The call handler judged the name before; a stage of the same
		// pipeline may have made the directory or the program since.
		return x.refuse(step, "run "+gate.Visible(args[0])+": "+pr.found.Why(), gate.Of(gate.Exec), allowed)
	}
	argv, env := args, pr.childPath(childEnv(hc.Env), allowed.Has(gate.Exec))
	if args[0] == "git" {
		argv, env = gitRead(args, env)
	}
	l, refusal := x.sandbox(path, argv, env, hc.Dir, allowed)
	if refusal != "" {
		fmt.Fprint(hc.Stderr, refusal)
		return interp.ExitStatus(126)
	}
	x.noteSandbox(l, allowed)
	cmd := &exec.Cmd{
		Path: l.path, Args: l.argv, Env: l.env, Dir: hc.Dir,
		Stdin: hc.Stdin, Stdout: hc.Stdout, Stderr: hc.Stderr,
		// A new session is a new process group (its id is the pid) with no
		// controlling terminal: the group is killed whole, and no program
		// can read or stop on the server's terminal.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
		// Only when a stream is not a file does exec copy it; then a
		// process left holding it cannot hold Wait past the grace.
		WaitDelay: x.grace,
	}
	var planW *os.File
	if l.plan != nil {
		pr, pw, perr := os.Pipe()
		if perr != nil {
			fmt.Fprintf(hc.Stderr, "bash: %s: not run: no pipe for the sandbox's plan (%v)\n", args[0], perr)
			return interp.ExitStatus(126)
		}
		defer pr.Close()
		planW = pw
		cmd.ExtraFiles = []*os.File{pr}
	}
	x.mu.Lock()
	if x.stopped != "" || x.changed != nil {
		x.mu.Unlock()
		if planW != nil {
			planW.Close()
		}
		return errHalted
	}
	var endLive func() []string
	if l.begin != nil {
		endLive = l.begin()
	}
	err = cmd.Start()
	if planW != nil {
		go func(plan []byte) {
			_, _ = planW.Write(plan)
			planW.Close()
		}(l.plan)
	}
	if err == nil {
		x.groups[cmd.Process.Pid] = true
	}
	x.mu.Unlock()
	if err != nil {
		if endLive != nil {
			endLive()
		}
		if errors.Is(err, syscall.ENOEXEC) {
			fmt.Fprintf(hc.Stderr, "bash: %s: cannot run it: not a program, and a script without #! does not run\n", args[0])
			return interp.ExitStatus(126)
		}
		fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", args[0], err)
		return interp.ExitStatus(126)
	}
	err = cmd.Wait()
	made := refuseMade(l.made, x.id)
	if endLive != nil {
		made = append(endLive(), made...)
	}
	if len(made) > 0 {
		x.currentNote().made(made)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return interp.ExitStatus(128 + uint8(ws.Signal()))
		}
		return interp.ExitStatus(uint8(ee.ExitCode()))
	case errors.Is(err, exec.ErrWaitDelay):
		return nil
	}
	fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", args[0], err)
	return interp.ExitStatus(1)
}

// killGroups sends TERM to every process group the script started, and
// KILL after the grace to each that still has a process.
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
		for _, g := range groups {
			if syscall.Kill(-g, 0) == nil {
				_ = syscall.Kill(-g, syscall.SIGKILL)
			}
		}
	})
}

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
