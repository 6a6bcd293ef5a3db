package shell

import "golang.org/x/sys/unix"

// coarseNow is the time a listing begins, from the clock the kernel
// stamps change times with (so a change later in the same tick has a
// time no earlier than it: the directory is racy, listed again).
func coarseNow() timespec {
	var t timespec
	_ = unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &t)
	return t
}
