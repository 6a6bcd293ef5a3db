package settings

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/internal/procfs"
	"github.com/eukhe/eukhe/internal/sigdefault"
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
	switch filepath.Base(inv[0]) {
	case "fish":
		args = append(args, "--private") // fish keeps no history of it
	case "zsh":
		// the typed line starts with a space: kept out of the history
		// list, so out of the file too, whatever ~/.zshrc writes when
		// (INC_APPEND_HISTORY, SHARE_HISTORY write each line as it is
		// typed: the tenth red team's)
		args = append(args, "-o", "HIST_IGNORE_SPACE")
	}
	sigdefault.ForChildren() // hung up at the end, whatever eukhe was started ignoring
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
	typed := typedAsk(filepath.Base(inv[0]))
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

// typedAsk is the line typed to the shell: the PATH between marks, each
// printed in two halves (the terminal's echo of the line never holds the
// mark whole), then exit. It keeps the line out of the user's history:
// bash's history is turned off (set +o history: HISTFILE may be
// readonly, as hardening guides set it, and then unset HISTFILE failed
// and bash wrote the line at its exit: the tenth red team's); zsh is
// started with HIST_IGNORE_SPACE and given no unset (on a readonly
// HISTFILE, zsh drops the rest of the line); other shells have HISTFILE
// unset.
func typedAsk(shell string) string {
	half := shellPathMark[:len(shellPathMark)/2] + " " + shellPathMark[len(shellPathMark)/2:]
	ask := "printf '%s%s\\n' " + half + "; printenv PATH; printf '%s%s\\n' " + half + "; exit\n"
	switch shell {
	case "bash":
		return " set +o history; unset HISTFILE; " + ask
	case "zsh":
		return " " + ask
	}
	return " unset HISTFILE; " + ask
}

// letShellGo ends a shell asked on a terminal without cutting its
// startup files' programs short: it has "exit" typed, and is given
// shellLinger to reach it (a startup file's tool finishing what it
// holds: pyenv rehash's lock). Then its terminal hangs up, as when the
// user closes a terminal window (SIGHUP to the shell and the terminal's
// foreground group, whose traps run), and what is left of its group
// shellHangupGrace later is killed.
func letShellGo(pid int, master *os.File, exited <-chan struct{}, linger time.Duration) {
	holdAsked(pid, master, time.Now().Add(linger)) // handed off if eukhe exits first
	select {
	case <-exited:
	case <-time.After(linger):
	}
	if !releaseAsked(pid) {
		return // handed to the holder: this process is exiting
	}
	// the terminal's foreground group: its hangup reaches that group
	// and the shell, so they are not hung up a second time (a second
	// SIGHUP kills a bash that is running its EXIT trap for the first)
	fg, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPGRP)
	if err != nil {
		fg = pid
	}
	master.Close() // the hangup
	endSession(pid, fg, exited)
}

// endSession hangs up the shell's session (sid) as a closing terminal
// does, gives it shellHangupGrace to end, then kills what is left and
// waits for the shell. Every process of the session at the hangup gets
// SIGHUP (a startup file's job in a group of its own, which the
// terminal's own SIGHUP misses, too). It looks at the session again
// every tick: a newcomer whose parent was hung up is that parent's
// answer to the hangup (an EXIT trap's rm) and is left to finish, as a
// terminal's hangup comes once — hanging it up too killed the trap's rm
// and left the user's lock (CI, under load); a newcomer of any other
// parent (adopted: its parent left the session) is hung up. The grace
// ends early only when the shell was reaped and no process of the
// session is left — not when the shell's own group is empty, which left
// a tool in a group of its own to the kill while its trap still ran.
func endSession(sid, foreground int, exited <-chan struct{}) {
	hung := map[int]bool{sid: true} // the leader: the terminal's hangup reached it
	answering := map[int]bool{}
	deadline := time.Now().Add(shellHangupGrace)
	for {
		left := false
		for _, p := range sessionMembers(sid) {
			left = true
			switch {
			case hung[p.PID], answering[p.PID]:
			case hung[p.PPID] || answering[p.PPID]:
				answering[p.PID] = true
			case p.PGRP == foreground:
				hung[p.PID] = true // by the terminal
			default:
				hung[p.PID] = true
				_ = syscall.Kill(p.PID, syscall.SIGHUP)
			}
		}
		select {
		case <-exited:
			if !left {
				return
			}
		default:
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-sid, syscall.SIGKILL)
	signalSession(sid, syscall.SIGKILL)
	<-exited
}

// sessionMembers are the live processes of session sid but its leader
// (the shell, whose end exited tells): a zombie is not one.
func sessionMembers(sid int) []procfs.Proc {
	var out []procfs.Proc
	for _, p := range procfs.All() {
		if p.Session == sid && p.PID != sid && !p.Zombie {
			out = append(out, p)
		}
	}
	return out
}

// signalSession sends sig to every process of the session sid (the
// shell asked made it: Setsid; the shell itself, its leader, is left to
// the hangup, and to the group kill before this). The kill after the
// grace ends them all, not only the shell's group.
func signalSession(sid int, sig syscall.Signal) {
	for _, p := range sessionMembers(sid) {
		_ = syscall.Kill(p.PID, sig)
	}
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
