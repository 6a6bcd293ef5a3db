package shell

import (
	"errors"

	"golang.org/x/sys/unix"
)

// waitExited returns once process pid (a child) has exited, without
// reaping it (waitid's WNOWAIT): until it is reaped its pid is not given
// to another process.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}
