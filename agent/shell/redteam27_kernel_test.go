//go:build linux

package shell

// The twenty-seventh red team's attacks on killKernel (target 3), HELD.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Attack (target 3, killKernel; HELD): the freeze that killKernel starts
// with is beaten — four processes of the kernel, each in a group of its
// own, continue (SIGCONT) every process of the kernel they find by name,
// in a loop (the twenty-fifth red team's open row) — while a fork-and-exit
// chain whose every link starts a session of its own writes a line a link.
// A kill that chased the chain one process at a time would let a link
// outlive the kernel's own process and run on orphaned. Safe outcome: no
// line in the second after the kill (300 ms after it returns), in two
// kills. Held: SIGKILL is not undone by SIGCONT, and each round kills the
// whole groups and every process listed, the subreaper last, until a
// round finds none left.
func TestRedteam27_KillOutlastsContinuersAndASessionChain(t *testing.T) {
	for i := range 2 {
		tag := fmt.Sprintf("r27k%06x", rand.Uint32()&0xffffff)
		k, ticks := r25Kernel(t, strings.ReplaceAll(`
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None)
def name(s):
    libc.prctl(15, s.encode(), 0, 0, 0)   # PR_SET_NAME
def mine():
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if open("/proc/%s/comm" % d).read().strip() == "TAG":
                    out.append(int(d))
            except OSError:
                pass
    return out
end = time.time() + 15  # one the kill misses still ends
for i in range(4):
    if os.fork() == 0:
        os.setpgid(0, 0)
        name("TAG")
        while time.time() < end:
            for p in mine():
                try:
                    os.kill(p, signal.SIGCONT)
                except OSError:
                    pass
        os._exit(0)
t = open(sys.argv[1], "a", buffering=1)
name("TAG")
while time.time() < end:
    os.setsid()
    t.write("t\n")
    if os.fork():
        os._exit(0)
`, "TAG", tag))
		r25WaitTicks(t, ticks)
		killKernel(k.Process.Pid, k.Process.Pid)
		time.Sleep(300 * time.Millisecond)
		n0 := r25Ticks(ticks)
		time.Sleep(time.Second)
		if n := r25Ticks(ticks) - n0; n > 0 {
			t.Fatalf("kill %d: the kernel's processes wrote %d lines in the second after the kill", i, n)
		}
	}
}

// Attack (the freeze, after the kill's CI failure; held): a
// fork-and-exit chain whose every link starts a session of its own,
// frozen three times: no group signal reaches a link's fork, and each link
// is gone a moment after it forks. Safe outcome: no line in the second
// after each freeze, and none after the kill that ends it.
func TestKernel_FreezeStopsASessionChain(t *testing.T) {
	k, ticks := r25Kernel(t, `
import os, sys, time
t = open(sys.argv[1], "a", buffering=1)
end = time.time() + 30  # a chain the cleanup misses still ends
while time.time() < end:
    os.setsid()
    t.write("t\n")
    if os.fork():
        os._exit(0)
`)
	r25WaitTicks(t, ticks)
	for i := range 3 {
		if n := r25FrozenTicks(t, k.Process.Pid, ticks); n > 0 {
			t.Fatalf("freeze %d: the chain wrote %d lines in the second after the freeze", i, n)
		}
	}
	killKernel(k.Process.Pid, k.Process.Pid)
	time.Sleep(300 * time.Millisecond)
	n0 := r25Ticks(ticks)
	time.Sleep(time.Second)
	if n := r25Ticks(ticks) - n0; n > 0 {
		t.Fatalf("the chain wrote %d lines in the second after the kill", n)
	}
}
