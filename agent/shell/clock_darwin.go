package shell

import "golang.org/x/sys/unix"

// coarseNow is the time a listing begins, no later than the change time
// of an entry made after it. macOS has no coarse clock; its file systems'
// timestamp clock is not documented, so the time is taken 10 ms back: a
// directory changed near a listing is racy (listed again), which costs a
// listing, never a missed change.
func coarseNow() timespec {
	var t timespec
	_ = unix.ClockGettime(unix.CLOCK_REALTIME, &t)
	return unix.NsecToTimespec(unix.TimespecToNsec(t) - 10_000_000)
}
