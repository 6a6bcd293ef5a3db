package settings

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/internal/procfs"
)

// A shell asked on a terminal of its own is let go in the background
// (letShellGo): it has shellLinger to reach the "exit" typed to it, and
// only then is its terminal hung up. When eukhe itself exits first — a
// one-shot `eukhe tool`, an agent's client that closes a session soon
// after it began — the terminal's master closed with the process, the
// kernel hung the shell up at once, and a startup file's tool was cut
// short where it held something: pyenv rehash, hung up between making its
// lock file and setting the trap that removes it, left the lock, and
// every shell the user opened after waited a minute for it (seen on a CI
// machine whose test runs start eukhe hundreds of times). So the shells
// still asked at exit are handed to a small process of their own
// (HandOffAskedShells), which holds their terminals until each shell
// ends or its linger is over, and then lets it go as letShellGo does.

// askedShells are the shells asked on a terminal and not let go yet: pid →
// its terminal's master and when its linger ends.
var askedShells = struct {
	sync.Mutex
	m      map[int]askedShell
	handed bool // handed off: this process is exiting, the holder lets them go
}{m: map[int]askedShell{}}

type askedShell struct {
	master *os.File
	until  time.Time
}

// holdAsked notes a shell being let go; releaseAsked, before its terminal
// is closed, that it no longer can be handed off — false when it was
// already (then this process is exiting and must not hang it up).
func holdAsked(pid int, master *os.File, until time.Time) {
	askedShells.Lock()
	askedShells.m[pid] = askedShell{master, until}
	askedShells.Unlock()
}

func releaseAsked(pid int) bool {
	askedShells.Lock()
	defer askedShells.Unlock()
	delete(askedShells.m, pid)
	return !askedShells.handed
}

// LingerArg is the argument of eukhe's re-run that holds the terminals of
// the shells it was handed (LingerMain).
const LingerArg = "__hold-shells"

// HandOffAskedShells hands the shells still let go to a process of their
// own, just before this one exits: `eukhe __hold-shells PID MS …`, their
// masters as its descriptors 3, 4, …, in a session of its own. The lock
// is held through the start, so no master is closed (and its descriptor
// number reused) while it is passed. Nothing to hand: nothing is started.
func HandOffAskedShells() {
	askedShells.Lock()
	defer askedShells.Unlock()
	if len(askedShells.m) == 0 {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	args := []string{LingerArg}
	var files []*os.File
	for pid, a := range askedShells.m {
		left := max(time.Until(a.until), 0)
		args = append(args, strconv.Itoa(pid), strconv.FormatInt(left.Milliseconds(), 10))
		files = append(files, a.master)
	}
	cmd := exec.Command(self, args...)
	cmd.ExtraFiles = files
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		askedShells.handed = true
		cmd.Process.Release()
	}
}

// LingerMain is the process HandOffAskedShells starts: for each shell it
// was handed, it reads and drops what the shell prints (a full terminal
// would stop it), waits until the shell ends or its linger is over, and
// lets it go as letShellGo does (the hangup, then the kill of what is left
// shellHangupGrace later).
func LingerMain(args []string) int {
	var wg sync.WaitGroup
	for i := 0; i+1 < len(args); i += 2 {
		pid, err1 := strconv.Atoi(args[i])
		ms, err2 := strconv.ParseInt(args[i+1], 10, 64)
		if err1 != nil || err2 != nil || pid <= 1 {
			continue
		}
		master := os.NewFile(uintptr(3+i/2), "shell terminal")
		if master == nil {
			continue
		}
		// only the session the terminal it holds leads: whoever starts
		// this with another process's pid (a step could) signals nothing
		if sid, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGSID); err != nil || sid != pid {
			master.Close()
			continue
		}
		exited := make(chan struct{})
		go func() { _, _ = io.Copy(io.Discard, master) }()
		go func() {
			for procfs.Alive(pid) {
				time.Sleep(50 * time.Millisecond)
			}
			close(exited)
		}()
		wg.Go(func() { letShellGo(pid, master, exited, time.Duration(ms)*time.Millisecond) })
	}
	wg.Wait()
	return 0
}
