package settings

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// askShellPath asks the shell as a terminal starts it: interactive, on a
// pseudo-terminal of its own, given the command as typed input. So a
// startup file that adds to PATH only on a terminal ([ -t 0 ] || return)
// and a prompt hook that adds before each prompt (PROMPT_COMMAND,
// precmd) are seen, as the ninth red team's were not through pipes. The
// command prints the mark in two halves, so the terminal's echo of the
// typed line never holds it whole. Without a terminal to open, it asks
// through pipes.
func askShellPath(inv shellInvocation, env map[string]string) (string, bool) {
	if !slices.Contains(inv, "-i") {
		return askShellPathPipe(inv, env) // a non-interactive shell (BASH_ENV): as scripts run it
	}
	master, tty, err := openPTY()
	if err != nil {
		return askShellPathPipe(inv, env)
	}
	args := slices.Clone(inv[1 : len(inv)-1]) // "-i" and "-l", without "-c": commands come typed
	if filepath.Base(inv[0]) == "fish" {
		args = append(args, "--private") // fish keeps no history of it
	}
	cmd := exec.Command(inv[0], args...)
	cmd.Env = envList(env)
	cmd.Dir = env["HOME"]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	err = cmd.Start()
	tty.Close()
	if err != nil {
		master.Close()
		return askShellPathPipe(inv, env)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	// unset HISTFILE: bash and zsh write no history of the typed line
	// when they exit (the user's ~/.bash_history stays as it is)
	typed := " unset HISTFILE; printf '%s%s\\n' " + shellPathMark[:len(shellPathMark)/2] + " " + shellPathMark[len(shellPathMark)/2:] +
		"; printenv PATH; printf '%s%s\\n' " + shellPathMark[:len(shellPathMark)/2] + " " + shellPathMark[len(shellPathMark)/2:] + "; exit\n"
	answered := make(chan string, 1)
	if _, err := master.Write([]byte(typed)); err == nil {
		go readShellAnswer(master, answered)
	}
	text := "" // past the wait: no answer
	select {
	case text = <-answered:
	case <-time.After(shellPathWait):
	}
	go letShellGo(cmd.Process.Pid, master, exited, shellLinger)
	return pathBetweenMarks(text)
}

// readShellAnswer reads the terminal until the shell has printed both
// marks, and sends what it printed to answered; then it reads on, to no
// one, so the shell is never held writing, until the terminal closes.
func readShellAnswer(master *os.File, answered chan<- string) {
	var out bytes.Buffer
	buf := make([]byte, 32<<10)
	sent := false
	for {
		n, err := master.Read(buf)
		if !sent && out.Len() < 1<<20 {
			out.Write(buf[:n])
			if bytes.Count(out.Bytes(), []byte(shellPathMark)) >= 2 {
				answered <- out.String()
				sent = true
			}
		}
		if err != nil {
			return // EIO: the shell and all it started closed the terminal; or closed here
		}
	}
}

// letShellGo ends a shell asked on a terminal without cutting its
// startup files' programs short: it has "exit" typed, and is given
// shellLinger to reach it (a startup file's tool finishing what it
// holds: pyenv rehash's lock). Then its terminal hangs up, as when the
// user closes a terminal window (SIGHUP to the shell and the terminal's
// foreground group, whose traps run), and what is left of its group
// shellHangupGrace later is killed.
func letShellGo(pid int, master *os.File, exited <-chan struct{}, linger time.Duration) {
	select {
	case <-exited:
	case <-time.After(linger):
	}
	master.Close() // the hangup
	deadline := time.After(shellHangupGrace)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-deadline:
			break wait
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
	_ = syscall.Kill(-pid, syscall.SIGKILL) // what is left of its group
	<-exited
}

// openPTY opens a pseudo-terminal pair (posix_openpt, unlockpt, ptsname).
func openPTY() (master, tty *os.File, err error) {
	// non-blocking: the runtime's poller reads it, so closing it ends a
	// read under way and hangs the terminal up at once
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, errors.Join(err, errors.New("no terminal"))
	}
	return master, tty, nil
}
