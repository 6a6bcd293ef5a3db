package gate

import (
	"os"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sys/unix"
)

// mountTable is this process's mount table (nil where it cannot be read).
func mountTable() []mount {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return parseMountinfo(string(b))
}

// mountWatch tells whether the mount table changed since it last looked.
// The kernel marks an open /proc/self/mountinfo with a priority event at
// an unmount and at most mounts (proc(5)), which one poll that does not
// wait reads; a bind mount made with the new mount calls (move_mount, as
// util-linux's mount does) was not marked on a 6.18 kernel, so the table
// is also read again at most every mountRecheck and compared with the
// last one read.
type mountWatch struct {
	mu     sync.Mutex
	f      *os.File
	fd     int32     // f's descriptor, taken once (each Fd call is an fcntl)
	at     time.Time // the table last read
	polled time.Time // the mark last polled (at most every mountPoll)
	last   uint64    // the hash of the table last read
}

// mountPoll is how often the kernel's mark is polled at most: a tree
// search judges thousands of paths, each would otherwise pay a syscall.
const mountPoll = time.Millisecond

func newMountWatch() *mountWatch {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	w := &mountWatch{f: f, fd: int32(f.Fd()), at: time.Now()}
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		w.last = xxhash.Sum64(b)
	}
	return w
}

// changed gives the mount table when it changed since the last look (or
// the watch began), else nil and false.
func (w *mountWatch) changed() ([]mount, bool) {
	if w == nil {
		return nil, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if now.Sub(w.polled) < mountPoll {
		return nil, false
	}
	w.polled = now
	fds := []unix.PollFd{{Fd: w.fd, Events: unix.POLLPRI}}
	n, err := unix.Poll(fds, 0)
	marked := err == nil && n > 0 && fds[0].Revents&(unix.POLLPRI|unix.POLLERR) != 0
	if !marked && now.Sub(w.at) < mountRecheck {
		return nil, false
	}
	w.at = now
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, false
	}
	if h := xxhash.Sum64(b); h != w.last {
		w.last = h
		return parseMountinfo(string(b)), true
	}
	return nil, false
}
