//go:build open_attacks && linux

package shell

// The twenty-fifth red team's attacks that GOT THROUGH (the held rows and
// the helpers are in redteam25_meta_test.go). Each asserts the safe
// outcome, so it fails while the hole is open. Run with -tags
// open_attacks.

import (
	"testing"
)

// Attack (change 3, the freeze; got through, medium): a fork-and-exit chain whose every link
// starts a session (so a group) of its own. The group stop reaches a
// fork in progress in that group only; the link's child calls setsid
// first and is in a new group before the next look lists it, so the
// freeze chases the chain one process at a time, as before the change,
// for 64 looks, and the chain runs on between cells (as the twelfth red
// team's chain did: what it does then, no watch of protected entries
// sees). Safe outcome: no line in the second after the freeze, in six
// freezes.
func TestRedteam25_ForkExitChainInANewSessionEachLinkIsFrozen(t *testing.T) {
	k, ticks := r25Kernel(t, `
import os, sys, time
t = open(sys.argv[1], "a", buffering=1)
end = time.time() + 60  # no cleanup can end this chain: it ends itself
while time.time() < end:
    os.setsid()
    t.write("t\n")
    if os.fork():
        os._exit(0)
`)
	r25WaitTicks(t, ticks)
	for i := range 6 {
		if n := r25FrozenTicks(t, k.Process.Pid, ticks); n > 0 {
			t.Fatalf("freeze %d: the chain wrote %d lines in the second after the freeze", i, n)
		}
	}
}

// Attack (change 3, the freeze; held): processes of the kernel that continue
// each other. The freeze stops a group at a time, then a process at a
// time, each once; a process not stopped yet may send SIGCONT to one
// stopped before it (Landlock scopes signals to the sandbox's domain:
// the kernel's processes may signal each other). Eight children of the
// kernel, each in a group of its own, send SIGCONT to all the others in
// a loop and write a line every 10 ms. Safe outcome: no line in the
// second after the freeze, in three freezes.
// GOT THROUGH (medium), found open in this stop's checks: it passed for the red team (9 freezes of 3 runs) and failed 2 runs of 4 here. With eight processes each continuing the others in a loop, a stop of one at a time is a chase that cannot be won: each stopped process is continued by one not yet stopped. The freeze now stops again until two looks in a row find each stopped (up to 128 looks), which narrows it (1 run of 6 failed) but cannot close it: the looks ran out with all running. Fix: a stop no signal undoes (ptrace's PTRACE_INTERRUPT, whose stop SIGCONT does not end, or the cgroup freezer where one is ours).
func TestRedteam25_ProcessesThatContinueEachOtherAreFrozen(t *testing.T) {
	k, ticks := r25Kernel(t, `
import os, signal, sys, time
N = 8
ready = sys.argv[1] + ".pids"
kids = []
for i in range(N):
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        while not os.path.exists(ready):
            time.sleep(0.01)
        others = [int(x) for x in open(ready).read().split()]
        others = [p for p in others if p != os.getpid()]
        t = open(sys.argv[1], "a", buffering=1)
        last = 0
        end = time.time() + 60  # one the cleanup misses still ends
        while time.time() < end:
            for p in others:
                try:
                    os.kill(p, signal.SIGCONT)
                except OSError:
                    pass
            now = time.time()
            if now - last > 0.01:
                t.write("t\n")
                last = now
    kids.append(pid)
with open(ready + ".tmp", "w") as f:
    f.write(" ".join(str(p) for p in kids + [os.getpid()]))
os.rename(ready + ".tmp", ready)
while True:
    time.sleep(1)
`)
	r25WaitTicks(t, ticks)
	for i := range 3 {
		if n := r25FrozenTicks(t, k.Process.Pid, ticks); n > 0 {
			t.Fatalf("freeze %d: the kernel's processes wrote %d lines in the second after the freeze (one continued another)", i, n)
		}
	}
}
