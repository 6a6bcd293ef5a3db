//go:build unix

package settings

import (
	"bytes"
	"context"
	"os/exec"
	"sort"
	"syscall"
)

// askShellPathPipe runs one shell invocation with the command that prints its
// PATH, in a session of its own (no terminal: an interactive shell cannot
// take the editor's), with nothing on its input, and reads what it
// printed; false when it failed, printed no marked PATH or ran past
// shellPathWait (its process group gets SIGHUP then, so traps run, and
// what is left of it shellHangupGrace later is killed).
func askShellPathPipe(inv shellInvocation, env map[string]string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), shellPathWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, inv[0], append(inv[1:], shellPathCommand())...)
	cmd.Env = envList(env)
	cmd.Dir = env["HOME"]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGHUP) }
	cmd.WaitDelay = shellHangupGrace
	defer func() {
		if ctx.Err() != nil && cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what is left of its group
		}
	}()
	var out bytes.Buffer
	cmd.Stdout = &limited{w: &out, n: 1 << 20}
	if err := cmd.Run(); err != nil && out.Len() == 0 {
		return "", false
	}
	return pathBetweenMarks(out.String())
}

func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// limited keeps the first n bytes written and drops the rest.
type limited struct {
	w *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
