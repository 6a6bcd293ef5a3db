//go:build linux

package shell

// The twenty-fifth red team's attacks on three changes of the Landlock
// step and the ipython freeze: the write rules sent to the supervisor as
// the objects the inner run opened (openWriteRules, ruleObjects), the
// filter's refusal of the inode flag ioctls, and the freeze that stops
// whole process groups of the kernel's. The rows that HELD are here; the
// ones that got through are in redteam25_open_attacks_test.go (build tag
// open_attacks). Each runs real confined programs (a Runner's step, or
// `eukhe __confine` through confineDirect) or freezeKernel on a real
// process tree.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// r25Flags reads p's inode flags (FS_IOC_GETFLAGS); a filesystem without
// them is a missing tool.
func r25Flags(t *testing.T, p string) uint32 {
	t.Helper()
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	v, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		testkit.Missing(t, "inode flags (FS_IOC_GETFLAGS) on the temporary directory's filesystem: "+err.Error())
	}
	return v
}

// r25NeedFlags fails (CI) or skips unless the temporary directory's
// filesystem keeps FS_NODUMP_FL as its owner sets it.
func r25NeedFlags(t *testing.T, dir string) {
	t.Helper()
	ctl := filepath.Join(dir, "r25-ctl")
	if err := os.WriteFile(ctl, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(ctl)
	fd, err := unix.Open(ctl, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(r25Flags(t, ctl)|r22NodumpFL))
	unix.Close(fd)
	if err != nil || r25Flags(t, ctl)&r22NodumpFL == 0 {
		testkit.Missing(t, fmt.Sprintf("inode flags (FS_IOC_SETFLAGS) on the temporary directory's filesystem: %v", err))
	}
}

// Attack (change 2, the ioctl filter; held): the request number spelled
// wide. ioctl's request is an unsigned long in the registers, which the
// kernel truncates to an unsigned int; a filter that compared the whole
// 64 bits, or the high half, would let FS_IOC_SETFLAGS | 1<<32 (and
// FS_IOC_FSSETXATTR with every high bit set) through while the kernel
// runs FS_IOC_SETFLAGS. The filter loads the low half: refused (EPERM),
// and out/f's flags and fsxattr flags stay as they were.
func TestRedteam25_IoctlRequestWithHighBitsSetIsRefused(t *testing.T) {
	w := newR22World(t)
	r25NeedFlags(t, w.base)
	target := filepath.Join(w.out, "f")
	before := r25Flags(t, target)
	out := w.run(t, `
import array
libc.syscall.restype = ctypes.c_long
fd = os.open(OUT + "/f", os.O_RDONLY)
b = (ctypes.c_long * 1)(0)
libc.syscall(16, fd, 0x80086601, b)   # FS_IOC_GETFLAGS
b[0] |= 0x8 | 0x40 | 0x80            # sync, nodump, noatime
for k, hi in [("hi1", 1 << 32), ("hiall", 0xffffffff << 32), ("hi31", 1 << 63)]:
    r = libc.syscall(16, fd, ctypes.c_ulong(0x40086602 | hi), b)
    print("R22", k, res(r))
x = ctypes.create_string_buffer(28)
libc.syscall(16, fd, 0x801c581f, x)  # FS_IOC_FSGETXATTR
xb = bytearray(x.raw); xb[0] |= 0x20 | 0x40 | 0x80
x = ctypes.create_string_buffer(bytes(xb), 28)
r = libc.syscall(16, fd, ctypes.c_ulong(0x401c5820 | (0xffffffff << 32)), x)
print("R22 fsx-hi", res(r))
r = libc.syscall(16, fd, ctypes.c_ulong(0x40046602 | (0xdead << 32)), b)
print("R22 setflags32-hi", res(r))
`)
	vals := r22Vals(out)
	for _, k := range []string{"hi1", "hiall", "hi31", "fsx-hi", "setflags32-hi"} {
		if v, ok := vals[k]; !ok || v != strconv.Itoa(int(unix.EPERM)) {
			t.Errorf("%s: errno %q, want EPERM from the filter:\n%s", k, v, out)
		}
	}
	if now := r25Flags(t, target); now != before {
		t.Errorf("out/f: inode flags %#x -> %#x, changed by a step that may only read it:\n%s", before, now, out)
	}
}

// r25Same tells whether a step left now as before: mode, owner and
// xattrs the same, and no time set to the attacks' year (2001): another
// step's own work (a rename in the directory, a path walk) moves the
// times of what it touches.
func r25Same(before, now metaState) bool {
	set := func(ts unix.Timespec) bool {
		return time.Unix(ts.Unix()).Before(time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC))
	}
	return now.mode == before.mode && now.uid == before.uid && now.gid == before.gid && now.xattrs == before.xattrs &&
		(set(before.mtime) || !set(now.mtime)) && (set(before.atime) || !set(now.atime))
}

// r25SwapWorld is a confined world whose steps are judged read, write
// and exec (the root is split: its .git is protected, src is a rule of
// its own), with a second Runner on the same root whose steps are judged
// with protected and outside too (another session, or a job approved
// for more, running at the same time).
func r25SwapWorld(t *testing.T) (*confinedWorld, *Runner) {
	t.Helper()
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write, gate.Exec))
	judgedB := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected, gate.Outside)
	rB := &Runner{Root: cw.runner.Root, Env: cw.runner.Env,
		Gate:   Gate{Policy: cw.runner.Gate.Policy, Auto: func() gate.AutoSet { return gate.AutoOf(judgedB) }, Chain: cw.runner.Gate.Chain},
		Budget: time.Minute, KillGrace: 500 * time.Millisecond, blind: func(gate.Effects) gate.Effects { return judgedB }}
	t.Cleanup(func() { _ = rB.Close() })
	if err := os.WriteFile(cw.path("src/a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return cw, rB
}

// r25WaitThenAct runs step A (python code after the prelude, with the
// world's places): it makes src/ready, waits until stop appears in the
// root (or 10 s), then runs act. Meanwhile the second runner's script
// runs; A's output and B's are given.
func r25WaitThenAct(t *testing.T, cw *confinedWorld, rB *Runner, scriptB, act string) (Result, Result) {
	t.Helper()
	done := make(chan Result, 1)
	go func() {
		done <- r22Py(t, cw, `
import time
open("ROOT/src/ready", "w").close()
end = time.time() + 10
while not os.path.exists("ROOT/go.on") and time.time() < end:
    time.sleep(0.005)
`+act)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !exists(cw.path("src/ready")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	resB := rB.Run(t.Context(), Request{Script: cw.expand(scriptB + " && touch go.on")})
	resA := <-done
	return resA, resB
}

// Attack (change 1, the rule objects; held): a rule's directory moved
// outside the workspace while the step runs. Step A (read, write, exec)
// holds src as a write rule; step B (allowed outside and protected)
// moves it to OUTSIDE/moved and makes OUTSIDE/moved2 and "OUTSIDE/moved
// x" beside it. Landlock follows the inode: A may still write in
// OUTSIDE/moved, and so may its metadata calls (the judge agrees), but
// nothing beside it: the siblings whose names start with the same
// letters, OUTSIDE itself and the key keep their mode.
func TestRedteam25_RuleDirMovedOutsideIsFollowedNoFurther(t *testing.T) {
	cw, rB := r25SwapWorld(t)
	for _, d := range []string{"moved2", "moved x"} {
		if err := os.MkdirAll(filepath.Join(cw.outside, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cw.outside, d, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep := []string{cw.outside, filepath.Join(cw.outside, "moved2"), filepath.Join(cw.outside, "moved2", "f"),
		filepath.Join(cw.outside, "moved x"), filepath.Join(cw.outside, "moved x", "f"), cw.key, cw.root}
	before := map[string]metaState{}
	for _, p := range keep {
		before[p] = metaOf(t, p)
	}
	resA, resB := r25WaitThenAct(t, cw, rB, `mv src OUTSIDE/moved`, `
for k, p in [("inside", "OUTSIDE/moved/a.go"), ("sib", "OUTSIDE/moved2/f"), ("sibdir", "OUTSIDE/moved2"),
             ("space", "OUTSIDE/moved x/f"), ("outside", "OUTSIDE"), ("key", "KEY"), ("root", "ROOT")]:
    print("R22", k, call("chmod", p, 0o777, 0), call("utimensat", p, 0, 2001), call("setxattr", p, 0, 0))
`)
	vals := r22Vals(resA.Text)
	if v := vals["inside"]; !strings.HasPrefix(v, "0 0") {
		t.Logf("the moved rule's own file was not changed either (%q): the judge is stricter than Landlock there", v)
	}
	r22NoneZero(t, vals, []string{"sib", "sibdir", "space", "outside", "key", "root"}, resA.Text+"\n"+resB.Text)
	for p, s := range before {
		if now := metaOf(t, p); !r25Same(s, now) {
			t.Errorf("%s changed by a step that may not write it:\n before %+v\n after  %+v\nA:\n%s\nB:\n%s", p, s, now, resA.Text, resB.Text)
		}
	}
}

// Attack (change 1, the rule objects; held): a rule's directory removed
// and its name reused. Step B removes src (the rule's object is gone:
// nlink 0) and puts a link to ~/.ssh, then a fresh directory holding a
// link to the key, at its name. A's chmod, utimes and setxattr on the
// key, through src and by its own path, are refused: a removed rule is
// left out, not read again by its old name.
func TestRedteam25_RuleDirRemovedAndItsNameReused(t *testing.T) {
	for _, c := range []struct{ name, scriptB string }{
		{"link", `rm -rf src && ln -s HOME/.ssh src`},
		{"dir", `rm -rf src && mkdir src && ln -s KEY src/k && ln -s HOME/.ssh src/s`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cw, rB := r25SwapWorld(t)
			before := metaOf(t, cw.key)
			beforeDir := metaOf(t, filepath.Dir(cw.key))
			resA, resB := r25WaitThenAct(t, cw, rB, c.scriptB, `
for k, p in [("key", "KEY"), ("via-src", "ROOT/src/id_ed25519"), ("via-k", "ROOT/src/k"), ("via-s", "ROOT/src/s/id_ed25519"), ("ssh", "HOME/.ssh")]:
    print("R22", k, call("chmod", p, 0o666, 0), call("utimensat", p, 0, 2001), call("setxattr", p, 0, 0))
`)
			if now := metaOf(t, cw.key); !r25Same(before, now) {
				t.Errorf("the key changed:\n before %+v\n after  %+v\nA:\n%s\nB:\n%s", before, now, resA.Text, resB.Text)
			}
			if now := metaOf(t, filepath.Dir(cw.key)); !r25Same(beforeDir, now) {
				t.Errorf("~/.ssh changed:\n before %+v\n after  %+v\nA:\n%s\nB:\n%s", beforeDir, now, resA.Text, resB.Text)
			}
		})
	}
}

// Attack (change 1, the rule objects; held): more write rules than one
// message carries (fdsPerMessage, 250). A workspace whose root is split
// (its .git is protected) and holds 300 entries gives a rule each. The
// step's chmod of an outside file and of the key is refused; the first
// and the last entry inside are changed (the rules go in several
// messages since; before, the entries past the 250th were refused).
func TestRedteam25_MoreWriteRulesThanSentChangeNothingOutside(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write, gate.Exec))
	for i := range 300 {
		if err := os.WriteFile(cw.path(fmt.Sprintf("f%03d", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(cw.outside, "o")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, beforeKey := metaOf(t, outside), metaOf(t, cw.key)
	res := r22Py(t, cw, `
for k, p in [("first", "ROOT/f000"), ("last", "ROOT/f299"), ("outside", "OUTSIDE/o"), ("key", "KEY")]:
    print("R22", k, call("chmod", p, 0o4777, 0), call("utimensat", p, 0, 2001))
`)
	vals := r22Vals(res.Text)
	t.Logf("inside, first and last entries: %q %q", vals["first"], vals["last"])
	r22NoneZero(t, vals, []string{"outside", "key"}, res.Text)
	for _, k := range []string{"first", "last"} {
		if vals[k] != "0 0" {
			t.Errorf("the %s entry inside was refused (%q):\n%s", k, vals[k], res.Text)
		}
	}
	if now := metaOf(t, outside); now != before {
		t.Errorf("OUTSIDE/o changed:\n%s", res.Text)
	}
	if now := metaOf(t, cw.key); now != beforeKey {
		t.Errorf("the key changed:\n%s", res.Text)
	}
}

// Attack (change 1, an unlinked file judged by its folder; held): a
// hard-linked outside file whose opened name is removed. A helper of the
// user's holds out/a open, out/a and out/b being one file; the name a
// is removed (the file keeps one link, b), so its /proc link reads
// "…/out/a (deleted)" with st_nlink 1. The step, through
// /proc/PID/fd/N, asks chmod, utimes and setxattr: the path with the
// suffix is no path the plan writes, and the folder rule is for st_nlink
// 0 only. And a name in in/ that itself ends in " (deleted)", with
// the outside file at a name that reads the same once the suffix is
// cut, gains nothing. out/b keeps its metadata.
func TestRedteam25_DeletedSuffixInALinkOfAFileOutside(t *testing.T) {
	w := newR22World(t)
	a, b := filepath.Join(w.out, "a"), filepath.Join(w.out, "b")
	if err := os.WriteFile(a, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	// a name inside that ends as the /proc link of an outside unlinked
	// file would once cut
	if err := os.WriteFile(filepath.Join(w.in, "a (deleted)"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	helper := exec.Command("sleep", "30")
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	helper.ExtraFiles = []*os.File{f}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	before := metaOf(t, b)
	out := w.run(t, fmt.Sprintf(`
P = "/proc/%d/fd/3"
print("R22 viaproc", call("chmod", P, 0o4777, 0), call("utimensat", P, 0, 2001), call("setxattr", P, 0, 0))
`, helper.Process.Pid))
	r22NoneZero(t, r22Vals(out), []string{"viaproc"}, out)
	if now := metaOf(t, b); now != before {
		t.Errorf("out/b changed through the removed name a:\n before %+v\n after  %+v\n%s", before, now, out)
	}
}

// r25Kernel starts a stand-in for an ipython kernel under its sandbox:
// a process in a session of its own and the subreaper of what it starts
// (as the Landlock supervisor is, and bubblewrap's init of its pid
// namespace), that runs the python code (argv[1]: the file for its
// lines) and reaps. It gives the stand-in and the file.
func r25Kernel(t *testing.T, code string) (*exec.Cmd, string) {
	t.Helper()
	needTool(t, "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "k.py")
	if err := os.WriteFile(script, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	ticks := filepath.Join(dir, "ticks")
	cmd := exec.Command(realPython(t), "-c", `
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
if os.fork() == 0:
    os.execv(sys.executable, [sys.executable, sys.argv[1], sys.argv[2]])
while True:
    try:
        os.wait()
    except ChildProcessError:
        time.sleep(0.05)
`, script, ticks)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// every process the stand-in left: its group at once (a chain in
		// it cannot outrun that), then its session and descendants,
		// while the stand-in, the subreaper they are orphaned to, lives
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		for range 3 {
			for _, p := range kernelProcesses(cmd.Process.Pid) {
				_ = syscall.Kill(p, syscall.SIGKILL)
				_ = syscall.Kill(p, syscall.SIGCONT)
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, ticks
}

// r25Ticks counts the lines of the ticks file.
func r25Ticks(p string) int {
	f, err := os.Open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	s := bufio.NewScanner(f)
	for s.Scan() {
		n++
	}
	return n
}

// r25WaitTicks waits until the ticks file holds some lines (the code
// runs).
func r25WaitTicks(t *testing.T, p string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r25Ticks(p) < 5 {
		if time.Now().After(deadline) {
			t.Fatal("the stand-in kernel wrote nothing: its code did not run")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// r25FrozenTicks freezes the kernel and tells how many lines its
// processes wrote in the second after (0 when the freeze holds); the
// kernel is thawed again after.
func r25FrozenTicks(t *testing.T, pid int, ticks string) int {
	t.Helper()
	frozen := freezeKernel(pid)
	time.Sleep(100 * time.Millisecond)
	n0 := r25Ticks(ticks)
	time.Sleep(time.Second)
	n := r25Ticks(ticks) - n0
	thawKernel(pid, frozen)
	return n
}

// Attack (change 3, the freeze; held): a fork-and-exit chain in the
// kernel's own group — the row the change fixed (the twelfth red team's
// TestRedTeam12_ForkExitChainIsFrozen), here without a whole session:
// each link writes a line and forks the next, then exits. The group's
// SIGSTOP reaches a fork in progress too: no line after the freeze, in
// three freezes.
func TestRedteam25_ForkExitChainInOneGroupIsFrozen(t *testing.T) {
	k, ticks := r25Kernel(t, `
import os, sys, time
t = open(sys.argv[1], "a", buffering=1)
end = time.time() + 60  # a chain the cleanup misses still ends
while time.time() < end:
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
}

// Attack (change 3, the freeze; held): a group that holds a process not
// the kernel's. The stand-in kernel here runs in the test's session (no
// session of its own), so its child may join the process group of a
// process that is not the kernel's (another of the test's, in its own
// group: as eukhe's or the sandbox's would be); the freeze must stop the
// kernel's child one by one and never signal that group, or it stops
// the foreign process.
func TestRedteam25_GroupWithAForeignMemberIsNotStopped(t *testing.T) {
	needTool(t, "python3")
	foreign := exec.Command("sleep", "30")
	foreign.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := foreign.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = foreign.Process.Kill(); _ = foreign.Wait() })
	g := foreign.Process.Pid
	// the kernel: in the test's session, its own group; its child joins
	// the foreign group
	k := exec.Command(realPython(t), "-c", fmt.Sprintf(`
import os, time
pid = os.fork()
if pid == 0:
    os.setpgid(0, %d)
    print("joined", flush=True)
    time.sleep(30)
    os._exit(0)
time.sleep(30)
`, g))
	k.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := k.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range kernelProcesses(k.Process.Pid) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		_ = k.Process.Kill()
		_ = k.Wait()
	})
	if l, err := bufio.NewReader(out).ReadString('\n'); err != nil || strings.TrimSpace(l) != "joined" {
		t.Fatalf("the kernel's child did not join the foreign group: %q %v", l, err)
	}
	frozen := freezeKernel(k.Process.Pid)
	defer thawKernel(k.Process.Pid, frozen)
	time.Sleep(100 * time.Millisecond)
	if s := state(g); s == 'T' {
		t.Fatalf("the freeze stopped a process that is not the kernel's (it shares a group with the kernel's child); froze %v", frozen)
	}
	if len(frozen) < 2 {
		t.Fatalf("froze %v, want the kernel and its child", frozen)
	}
}

// Attack (change 1 and before it, got through, high; needs a second step
// allowed protected running at the same time): a rule's path swapped for
// a link between the plan and Landlock's open. The plan lists the root's
// entries without links (a link's rule would grant its target), but
// Landlock's rule is made later, in the inner run, by opening the
// path and following links: when src is a link to ~/.ssh at that
// moment, the step may read and write ~/.ssh. Step A, allowed read,
// write and exec, never secret, reads the private key and plants a file
// in ~/.ssh. Safe outcome: neither, in 15 runs.
// Held: the inner run opens each rule's object once, with no link on the way (openRuleObjects), and Landlock takes that object.
func TestRedteam25_RuleSwappedForALinkBeforeLandlockOpensIt(t *testing.T) {
	got, log := r25SwapRace(t, func(cw *confinedWorld, res Result) bool {
		return strings.Contains(res.Text, secretText) || exists(filepath.Join(filepath.Dir(cw.key), "planted"))
	})
	if got {
		t.Fatalf("a step never allowed secret read the key or wrote in ~/.ssh, after another swapped its rule's path for a link as it started:\n%s", log)
	}
}

// Attack (change 1, got through, high; needs a second step allowed
// protected running at the same time): a rule's path swapped for a link
// between Landlock's open and openWriteRules'. The supervisor's objects
// are opened by path again, after Landlock took its own (and after the
// filter is loaded), following links: "right after" is a window. When
// src was the directory for Landlock and is the link for openWriteRules,
// Landlock gives nothing of ~/.ssh, but the judge holds ~/.ssh as a
// directory the step may write, and performs its chmod of the key: 0666,
// by a step never allowed secret. Safe outcome: the key keeps 0600, in
// 15 runs.
// Held: the supervisor judges by the very objects Landlock took (sendRules), not by a second open.
func TestRedteam25_RuleSwappedForALinkBetweenLandlockAndTheJudge(t *testing.T) {
	got, log := r25SwapRace(t, func(cw *confinedWorld, res Result) bool {
		fi, err := os.Stat(cw.key)
		if err != nil || fi.Mode().Perm() == 0o600 {
			return false
		}
		if strings.Contains(res.Text, secretText) {
			// Landlock's rule moved too (the row above): not this one's
			// window; the key's mode is set back and A runs again
			_ = os.Chmod(cw.key, 0o600)
			return false
		}
		return true
	})
	if got {
		t.Fatalf("the private key's mode was changed by a step that may not see it, after another swapped its rule's path for a link as it started:\n%s", log)
	}
}

// r25SwapRace runs step B (allowed protected and outside) that swaps the
// rule directory src with lnk, a link to ~/.ssh, as fast as it can
// (renameat2 RENAME_EXCHANGE), while step A (read, write, exec: neither
// secret nor protected) is run again and again: each A reads the key,
// writes a line to a file beside it, and chmods it (0666) through the
// supervisor. A's plan is made from the root's entries as they are when
// it starts (src, or lnk while they are swapped: a link gets no rule);
// the inner run then opens each rule's path following links, twice:
// Landlock's own rule (go-landlock: open O_PATH), and, after the filter
// is loaded, the supervisor's object (openWriteRules). A swap between the
// plan and either open moves that rule onto ~/.ssh. It stops when hit
// tells so, or after 15 runs of A; it gives the runs' outputs.
func r25SwapRace(t *testing.T, hit func(cw *confinedWorld, res Result) bool) (bool, string) {
	t.Helper()
	cw, rB := r25SwapWorld(t)
	if err := os.Symlink(filepath.Dir(cw.key), cw.path("lnk")); err != nil {
		t.Fatal(err)
	}
	stop := cw.path("stop.flip")
	doneB := make(chan Result, 1)
	go func() {
		doneB <- rB.Run(t.Context(), Request{Script: cw.expand(`python3 -c '
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
open("flip.on", "w").close()
n, end = 0, time.time() + 40
while not os.path.exists("stop.flip") and time.time() < end:
    for _ in range(200):
        libc.renameat2(-100, b"src", -100, b"lnk", 2)
    n += 200
if os.path.islink("src"):
    libc.renameat2(-100, b"src", -100, b"lnk", 2)
print("flips", n)
'`)})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !exists(cw.path("flip.on")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	var log strings.Builder
	got := false
	for i := 0; i < 15 && !got; i++ {
		res := r22Py(t, cw, `
try:
    print("R22 key", open("KEY").read().strip())
except OSError as e:
    print("R22 key", e.errno)
try:
    with open("HOME/.ssh/planted", "w") as f: f.write("x")
    print("R22 planted 0")
except OSError as e:
    print("R22 planted", e.errno)
print("R22 chmod", call("chmod", "KEY", 0o666, 0))
`)
		fmt.Fprintf(&log, "run %d:\n%s\n", i, res.Text)
		got = hit(cw, res)
	}
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	resB := <-doneB
	fmt.Fprintf(&log, "B:\n%s\n", resB.Text)
	return got, log.String()
}

// Attack (change 2, got through, medium): file_setattr(2). Linux 6.17
// added file_getattr and file_setattr (x86-64: 468, 469), which read and
// set what FS_IOC_FSGETXATTR and FS_IOC_FSSETXATTR do, by path, with no
// descriptor at all. The filter refuses the ioctls only; the new call is
// neither an ioctl nor one of the metadata calls the supervisor judges,
// and Landlock has no right for it (a path walk needs none). A step
// allowed read and write (run unasked) sets sync, noatime and nodump on
// a file outside, on the outside directory, on ~/.bashrc (protected) and
// on the user's private key, which the step cannot even read (secret):
// nodump leaves the key out of a dump backup. (With CAP_LINUX_IMMUTABLE
// — a root user's step — immutable and append-only, if the filter's
// capability drop did not take them.) Safe outcome: no flag changes.
// Held: the filter refuses file_setattr (EPERM) and every call above the highest it knows (ENOSYS).
func TestRedteam25_FileSetattrSetsFlagsOutsideAndOnTheKey(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write))
	r25NeedFlags(t, cw.outside)
	f, bashrc := filepath.Join(cw.outside, "f"), filepath.Join(cw.home, ".bashrc")
	for _, p := range []string{f, bashrc} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	targets := []string{f, cw.outside, bashrc, cw.key}
	before := map[string]uint32{}
	for _, p := range targets {
		before[p] = r25Flags(t, p)
	}
	res := r22Py(t, cw, fmt.Sprintf(`
import struct
libc.syscall.restype = ctypes.c_long
NR_GET, NR_SET = %d, %d
try:
    open("KEY").read(); print("R22 keyread yes")
except OSError as e:
    print("R22 keyread", e.errno)
for k, p in [("file", "OUTSIDE/f"), ("dir", "OUTSIDE"), ("bashrc", "HOME/.bashrc"), ("key", "KEY")]:
    a = ctypes.create_string_buffer(24)
    g = libc.syscall(NR_GET, -100, p.encode(), a, 24, 0)
    x = struct.unpack_from("Q", a.raw)[0] | 0x20 | 0x40 | 0x80   # FS_XFLAG_SYNC, NOATIME, NODUMP
    struct.pack_into("Q", a, 0, x)
    print("R22", k, res(libc.syscall(NR_SET, -100, p.encode(), a, 24, 0)), "get", res(g))
`, unix.SYS_FILE_GETATTR, unix.SYS_FILE_SETATTR))
	for _, p := range targets {
		if now := r25Flags(t, p); now != before[p] {
			t.Errorf("%s: inode flags %#x -> %#x, set by a step that may not write it (file_setattr):\n%s", p, before[p], now, res.Text)
		}
	}
}

// Attack (change 2, got through, low): the set-version ioctls under
// their real numbers. The filter's list names FS_IOC_SETVERSION as
// 0x40086603 and its 32-bit form as 0x40046603, which are _IOW('f', 3,
// …): EXT4_IOC_GETVERSION's number with the write bit, no call at all.
// FS_IOC_SETVERSION is _IOW('v', 2, long), 0x40087602 (32-bit:
// 0x40047602), and ext4 has EXT4_IOC_SETVERSION, _IOW('f', 4, long),
// 0x40086604 (32-bit: 0x40046604). On ext4 without metadata_csum they set
// the inode's generation (and its ctime) of any file its owner may open,
// read-only too: a step allowed read and write changes a file outside.
// Safe outcome: each refused by the filter (EPERM), the generation and
// ctime unchanged.
// Held: the filter refuses the set-version requests under the headers' numbers (TestInodeIoctlsAreTheHeadersNumbers).
func TestRedteam25_SetVersionIoctlsUnderTheirRealNumbers(t *testing.T) {
	w := newR22World(t)
	target := filepath.Join(w.out, "f")
	gen, genOK := r25GetVersion(target)
	before := metaOf(t, target)
	out := w.run(t, `
libc.syscall.restype = ctypes.c_long
fd = os.open(OUT + "/f", os.O_RDONLY)
g = (ctypes.c_long * 1)(0x5eed)
for k, req in [("FS_IOC_SETVERSION", 0x40087602), ("FS_IOC32_SETVERSION", 0x40047602),
               ("EXT4_IOC_SETVERSION", 0x40086604), ("EXT4_IOC32_SETVERSION", 0x40046604)]:
    print("R22", k, res(libc.syscall(16, fd, req, g)))
`)
	vals := r22Vals(out)
	for _, k := range []string{"FS_IOC_SETVERSION", "FS_IOC32_SETVERSION", "EXT4_IOC_SETVERSION", "EXT4_IOC32_SETVERSION"} {
		if v := vals[k]; v != strconv.Itoa(int(unix.EPERM)) {
			t.Errorf("%s: errno %q, want EPERM from the filter (0 means the filesystem ran it):\n%s", k, v, out)
		}
	}
	if now, ok := r25GetVersion(target); genOK && ok && now != gen {
		t.Errorf("out/f: generation %#x -> %#x, set by a step that may only read it:\n%s", gen, now, out)
	}
	if now := metaOf(t, target); now.ctime != before.ctime {
		t.Errorf("out/f: ctime moved:\n%s", out)
	}
}

// r25GetVersion is FS_IOC_GETVERSION of p (the inode's generation); ok
// false where the filesystem does not keep one.
func r25GetVersion(p string) (uint32, bool) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(fd)
	v, err := unix.IoctlGetUint32(fd, 0x80087601) // FS_IOC_GETVERSION
	return v, err == nil
}

// Attack (change 3, the freeze; got through, medium): a fork-and-exit chain whose every link
// starts a session (so a group) of its own. The group stop reaches a
// fork in progress in that group only; the link's child calls setsid
// first and is in a new group before the next look lists it, so the
// freeze chases the chain one process at a time, as before the change,
// for 64 looks, and the chain runs on between cells (as the twelfth red
// team's chain did: what it does then, no watch of protected entries
// sees). Safe outcome: no line in the second after the freeze, in six
// freezes.
// HELD now: the freeze walks the kernel's tree by its children files (kernelTree).
func TestRedteam25_ForkExitChainInANewSessionEachLinkIsFrozen_Held(t *testing.T) {
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
// HELD now: the freeze walks the kernel's tree by its children files (kernelTree).
func TestRedteam25_ProcessesThatContinueEachOtherAreFrozen_Held(t *testing.T) {
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
