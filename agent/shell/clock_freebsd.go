package shell

import "golang.org/x/sys/unix"

// coarseNow is the time a listing begins, no later than the change time
// of an entry made after it: CLOCK_REALTIME_FAST (the last tick's time,
// as vfs timestamps at their default precision), 10 ms back for a
// precision set otherwise. A directory changed near a listing is racy
// (listed again), which costs a listing, never a missed change.
func coarseNow() timespec {
	var t timespec
	_ = unix.ClockGettime(unix.CLOCK_REALTIME_FAST, &t)
	return unix.NsecToTimespec(unix.TimespecToNsec(t) - 10_000_000)
}
