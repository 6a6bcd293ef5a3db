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
	defer master.Close()
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
		return askShellPathPipe(inv, env)
	}
	// unset HISTFILE: bash and zsh write no history of the typed line
	// when they exit (the user's ~/.bash_history stays as it is)
	typed := " unset HISTFILE; printf '%s%s\\n' " + shellPathMark[:len(shellPathMark)/2] + " " + shellPathMark[len(shellPathMark)/2:] +
		"; printenv PATH; printf '%s%s\\n' " + shellPathMark[:len(shellPathMark)/2] + " " + shellPathMark[len(shellPathMark)/2:] + "; exit\n"
	if _, err := master.Write([]byte(typed)); err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return "", false
	}
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		for out.Len() < 1<<20 {
			n, err := master.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return // EIO: the shell and all it started closed the terminal
			}
			if bytes.Count(out.Bytes(), []byte(shellPathMark)) >= 2 {
				return
			}
		}
	}()
	select {
	case <-read:
	case <-time.After(shellPathWait):
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its session: what it left running
	master.Close()
	<-read
	_ = cmd.Wait()
	return pathBetweenMarks(out.String())
}

// openPTY opens a pseudo-terminal pair (posix_openpt, unlockpt, ptsname).
func openPTY() (master, tty *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
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
