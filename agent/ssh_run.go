package agent

import (
	"context"
	"errors"
	"os/exec"
	"sync/atomic"
	"time"
)

// sshReader reads ssh://host/path (S7.9) for a session's urls.Reader
// (its SSH is Read): the decisions of ssh.go around one run of the user's
// ssh.
type sshReader struct {
	Hosts   func() []string // the global ssh.hosts setting, read at call time
	Program string          // the ssh program; "" means "ssh" from PATH
}

// Read reads ssh://rest within bound bytes. An error is a *urls.Error.
func (r *sshReader) Read(ctx context.Context, raw, rest string, bound int) (string, error) {
	var hosts []string
	if r.Hosts != nil {
		hosts = r.Hosts()
	}
	t, rej := ParseSSH(raw, rest, hosts)
	if rej != nil {
		return "", rej
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultSSHBudget)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	prog := r.Program
	if prog == "" {
		prog = "ssh"
	}
	run := runSSH(ctx, prog, SSHArgs(t, ConnectTimeout(time.Until(deadline))), bound)
	text, rej := SSHReply(raw, t, run)
	if rej != nil {
		return "", rej
	}
	return text, nil
}

// sshWaitDelay bounds the wait for ssh's output pipes after it exited or
// was killed: a process that left its group may still hold them.
const sshWaitDelay = 2 * time.Second

// maxStderr is the part of ssh's stderr kept to classify a failure.
const maxStderr = 8 << 10

// runSSH runs prog with args in its own process group, keeps the first
// limit bytes of its output and counts the rest, and kills the whole group
// when ctx is done.
func runSSH(ctx context.Context, prog string, args []string, limit int) SSHRun {
	path, err := exec.LookPath(prog)
	if err != nil {
		return SSHRun{StartErr: err, Cap: limit}
	}
	out := &capWriter{limit: limit}
	errOut := &capWriter{limit: maxStderr}
	var killed atomic.Bool
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = out, errOut
	ownGroup(cmd)
	cmd.Cancel = func() error {
		killed.Store(true)
		return killGroup(cmd)
	}
	cmd.WaitDelay = sshWaitDelay
	err = cmd.Run()
	run := SSHRun{Stderr: string(errOut.kept), Kept: out.kept, Dropped: out.dropped, Cap: limit, Deadline: killed.Load()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		run.Exit = exit.ExitCode()
	case cmd.ProcessState == nil:
		run.StartErr = err
	default:
		run.Exit = cmd.ProcessState.ExitCode()
	}
	return run
}

// capWriter keeps the first limit bytes written to it and counts the
// rest. exec writes to it from one goroutine and Run returns after it is
// done.
type capWriter struct {
	limit   int
	kept    []byte
	dropped int64
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := max(w.limit-len(w.kept), 0)
	n := min(room, len(p))
	w.kept = append(w.kept, p[:n]...)
	w.dropped += int64(len(p) - n)
	return len(p), nil
}
