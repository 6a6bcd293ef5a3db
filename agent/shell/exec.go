package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/eukhe/eukhe/gate"
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
			bctx := ctx
			if changesDir(args[1:]) {
				bctx = context.WithValue(ctx, cdCheck{}, true)
			}
			err = hc.Builtin(bctx, args[1:])
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
	st := x.judge(args, hc.Dir, hc.Env)
	allowed = x.programAllowance(step, inStep, st, allowed)
	if pr.found.Exec && !allowed.Has(gate.Exec) {
		// The call handler judged the name before; a stage of the same
		// pipeline may have made the directory or the program since.
		return x.refuse(step, "run "+gate.Visible(args[0])+": "+pr.found.Why(), gate.Of(gate.Exec), allowed)
	}
	argv, env := args, pr.childPath(childEnv(hc.Env), allowed.Has(gate.Exec))
	if args[0] == "git" {
		argv, env = gitRead(args, env)
	}
	l, refusal := x.sandbox(path, argv, env, hc.Dir, allowed, st.Reals)
	if refusal != "" {
		fmt.Fprint(hc.Stderr, refusal)
		return interp.ExitStatus(126)
	}
	x.noteSandbox(l, allowed)
	if l.warn != "" {
		fmt.Fprint(hc.Stderr, l.warn)
	}
	settled := false
	settle := func() {
		if l.settle != nil && !settled {
			settled = true
			for _, line := range l.settle(args[0]) {
				fmt.Fprintln(hc.Stderr, line)
			}
		}
	}
	defer settle() // a process that never started: its copies go
	cmd := &exec.Cmd{
		Path: l.path, Args: l.argv, Env: l.env, Dir: hc.Dir,
		Stdin: hc.Stdin, Stdout: hc.Stdout, Stderr: hc.Stderr,
		// A process group of its own, killed whole (exec_unix.go: a new
		// session; exec_windows.go: a Job object after the start).
		SysProcAttr: groupAttr(),
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
	if x.stopped != "" || x.changed != nil || x.ending {
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
	var group procGroup
	if err == nil {
		group = startGroup(cmd.Process)
		x.groups[group] = true
		if x.live == nil {
			x.live = map[int]procGroup{}
		}
		x.live[cmd.Process.Pid] = group
		x.externals.Add(1)
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
	defer x.externals.Done()
	// Reaped only once no endProcesses looks by its pid (reapMu): till
	// then the pid, and its group's id, are the program's.
	pid := cmd.Process.Pid
	waitExited(pid)
	x.reapMu.Lock()
	x.mu.Lock()
	delete(x.live, pid)
	x.mu.Unlock()
	x.reapMu.Unlock()
	err = cmd.Wait()
	x.waited(group)
	settle()
	if allowed.Has(gate.Protected) {
		// a link it made in a protected place makes its target one: in
		// the policy's places, and at each path its words named (a
		// nested repository's hooks, a .git no rule names but by name:
		// the thirty-fourth red team's), whose resolution learns a link
		// on its way
		x.policy.LearnLinks()
		for _, r := range st.Reals {
			x.policy.Resolve("/", r)
		}
	}
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
