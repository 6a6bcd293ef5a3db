//go:build unix

package settings

import (
	"bytes"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"

	"github.com/eukhe/eukhe/internal/sigdefault"
)

// askShellPathPipe runs one shell invocation with the command that prints its
// PATH, in a session of its own (no terminal: an interactive shell cannot
// take the editor's), with nothing on its input, and reads what it
// printed; false when it failed, printed no marked PATH or ran past
// shellPathWait. The answer is in as soon as both marks are, or the
// shell and all it started closed its output. A shell still running at
// the wait is let go in the background (endShellPipe), so a startup file
// that ignores the hangup does not hold the answer past the wait (the
// tenth red team's: it held it shellHangupGrace longer).
func askShellPathPipe(inv shellInvocation, env map[string]string) (string, bool) {
	start := time.Now()
	sigdefault.ForChildren() // hung up at the end, whatever eukhe was started ignoring
	cmd := exec.Command(inv[0], append(inv[1:], shellPathCommand())...)
	cmd.Env = envList(env)
	cmd.Dir = env["HOME"]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	r, w, err := os.Pipe()
	if err != nil {
		return "", false
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return "", false
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	answered := make(chan string, 1)
	go readShellAnswer(r, answered)
	text := "" // past the wait: no answer
	select {
	case text = <-answered:
	case <-time.After(shellPathWait):
	}
	go endShellPipe(cmd.Process.Pid, r, exited, shellPathWait-time.Since(start))
	return pathBetweenMarks(text)
}

// endShellPipe lets a shell asked through pipes go: it has left (at
// most) to finish by itself, then its group gets SIGHUP (so traps run)
// and is ended (endShellGroup); its output is closed then, so a program
// that keeps it open (a daemon) holds no reader here.
func endShellPipe(pid int, out *os.File, exited <-chan struct{}, left time.Duration) {
	select {
	case <-exited:
	case <-time.After(max(left, 0)):
		_ = syscall.Kill(-pid, syscall.SIGHUP)
		endShellGroup(pid, exited)
	}
	out.Close()
}

// endShellGroup gives what is left of a shell's group shellHangupGrace
// after its hangup to end, then kills it, and waits for the shell.
func endShellGroup(pid int, exited <-chan struct{}) {
	deadline := time.After(shellHangupGrace)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline:
			_ = syscall.Kill(-pid, syscall.SIGKILL) // what is left of its group
			<-exited
			return
		case <-tick.C:
			select {
			case <-exited:
				if syscall.Kill(-pid, 0) != nil { // the group is empty
					return
				}
			default:
			}
		}
	}
}

// readShellAnswer reads a shell's output until it has printed both
// marks, and sends what it printed to answered; then it reads on, to no
// one, so the shell is never held writing, until the output closes. An
// output that closes before both marks sends what it had: the shell
// that exits at once (a ~/.bashrc ending in exit) is not waited for.
func readShellAnswer(out *os.File, answered chan<- string) {
	var got bytes.Buffer
	buf := make([]byte, 32<<10)
	sent := false
	for {
		n, err := out.Read(buf)
		if !sent && got.Len() < 1<<20 {
			got.Write(buf[:n])
			if bytes.Count(got.Bytes(), []byte(shellPathMark)) >= 2 {
				answered <- got.String()
				sent = true
			}
		}
		if err != nil {
			if !sent {
				answered <- got.String()
			}
			return // EOF, EIO: the shell and all it started closed it; or closed here
		}
	}
}

func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
