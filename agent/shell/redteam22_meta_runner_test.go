//go:build linux

package shell

// The twenty-second red team's attacks on the Landlock metadata judge
// that went through a real runner and are held now: the inode flag
// ioctls refused by the filter, an unnamed file judged by its folder, the
// write rules held as the objects Landlock took.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
	"golang.org/x/sys/unix"
)

// r22NodumpFL is FS_NODUMP_FL (chattr +d).
const r22NodumpFL = 0x40

// r22Confined is a confined world (Landlock) whose steps are judged to
// have judged, all in the auto set: they run unasked.
func r22Confined(t *testing.T, judged gate.Effects) *confinedWorld {
	t.Helper()
	useMechanism(t, Landlock)
	needTool(t, "python3")
	return newConfinedWorld(t, gate.AutoOf(judged), judged)
}

// r22Py runs the python code (after the metadata prelude, and the
// world's places filled in: ROOT, OUTSIDE, HOME, KEY) as one step of cw:
// python3 on a file of the workspace.
func r22Py(t *testing.T, cw *confinedWorld, code string) Result {
	t.Helper()
	if err := os.WriteFile(cw.path("r22.py"), []byte(metaPrelude()+cw.expand(code)), 0o644); err != nil {
		t.Fatal(err)
	}
	return cw.run("python3 r22.py")
}

// Attack (went through, medium; held now): the inode flags ioctl. Landlock's
// ioctl right covers devices only, and seccomp's filter does not send
// ioctl to the supervisor, so a step that may read a file may change
// its flags (chattr) through a read-only descriptor: FS_IOC_SETFLAGS
// (and FS_IOC_FSSETXATTR) need the owner, not a writable descriptor.
// A step allowed read and write (run unasked) sets sync, noatime and
// nodump on a file outside the workspace, on the outside directory
// itself, and on ~/.bashrc (protected). Under bubblewrap the read-only
// bind refuses (EROFS). (On a filesystem with fs-verity or encryption
// the same descriptor could make an outside file read-only for good
// (FS_IOC_ENABLE_VERITY) or an empty outside directory encrypted.)
// Safe outcome: no outside object's flags change.
func TestRedteam22_FileFlagsIoctlChangesFilesOutside(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write))
	targets := []string{filepath.Join(cw.outside, "f"), filepath.Join(cw.outside, "g"), cw.outside, filepath.Join(cw.home, ".bashrc")}
	for _, p := range []string{targets[0], targets[1], targets[3]} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flags := func(p string) uint32 {
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
	// the control: this filesystem keeps the flags
	ctl := filepath.Join(cw.outside, "ctl")
	if err := os.WriteFile(ctl, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if fd, err := unix.Open(ctl, unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags(ctl)|r22NodumpFL))
		unix.Close(fd)
		if err != nil || flags(ctl)&r22NodumpFL == 0 {
			testkit.Missing(t, fmt.Sprintf("inode flags (FS_IOC_SETFLAGS) on the temporary directory's filesystem: %v", err))
		}
	}
	before := map[string]uint32{}
	for _, p := range targets {
		before[p] = flags(p)
	}
	res := r22Py(t, cw, `
import fcntl, array
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR = 0x801c581f, 0x401c5820
for name, p in [("file", "OUTSIDE/f"), ("dir", "OUTSIDE"), ("bashrc", "HOME/.bashrc")]:
    fd = os.open(p, os.O_RDONLY)
    b = array.array("l", [0])
    fcntl.ioctl(fd, FS_IOC_GETFLAGS, b, True)
    b[0] |= 0x8 | 0x40 | 0x80   # sync, nodump, noatime
    try:
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, b, True); print("R22", name, 0)
    except OSError as e:
        print("R22", name, e.errno)
fd = os.open("OUTSIDE/g", os.O_RDONLY)
x = bytearray(28)
fcntl.ioctl(fd, FS_IOC_FSGETXATTR, x, True)
x[0] |= 0x20 | 0x40 | 0x80   # FS_XFLAG_SYNC, NOATIME, NODUMP
try:
    fcntl.ioctl(fd, FS_IOC_FSSETXATTR, x, True); print("R22 fsxattr 0")
except OSError as e:
    print("R22 fsxattr", e.errno)
`)
	for _, p := range targets {
		if now := flags(p); now != before[p] {
			t.Errorf("%s: inode flags %#x -> %#x, changed by a step that may only read it:\n%s", p, before[p], now, res.Text)
		}
	}
}

// Attack (went through, high; held now): an unnamed file of another process. The
// judge lets a call change any object with no name (st_nlink 0, or a
// /proc link that is not a path), and resolves /proc/PID/fd/N of any
// process of the user's as itself, not as the step (whom Landlock keeps
// from every other process's /proc entry). A process of the user's
// outside the sandbox (an editor, an installer) writes a program into an
// O_TMPFILE in a directory outside the workspace, to link it into place
// when done; the step, allowed read and write only, makes it
// set-user-ID and world-writable (04777), gives it an xattr and a time
// of 2000, through /proc/PID/fd/N; the process links it, and the
// program lands outside with the step's mode. Safe outcome: the file
// lands as its process made it (0644, no xattr).
func TestRedteam22_UnnamedFileOfAnotherProcessIsChanged(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write))
	helper := exec.Command(realPython(t), "-c", fmt.Sprintf(`
import os, sys, ctypes
libc = ctypes.CDLL(None, use_errno=True)
# a process of the user's: no capability (as any user's)
libc.capset((ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)())
OUT = %q
try:
    fd = os.open(OUT, os.O_TMPFILE | os.O_WRONLY, 0o644)
except OSError as e:
    print("none", e, flush=True); sys.exit(0)
os.write(fd, b"#!/bin/sh\necho planted\n")
print(os.getpid(), fd, flush=True)
sys.stdin.readline()
r = libc.linkat(-100, b"/proc/self/fd/%%d" %% fd, -100, (OUT + "/tool").encode(), 0x400)
print("linked", r, flush=True)
`, cw.outside))
	stdin, err := helper.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	helper.Stderr = os.Stderr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = helper.Process.Kill(); _ = helper.Wait() })
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var pid, fd int
	if _, err := fmt.Sscan(first, &pid, &fd); err != nil {
		testkit.Missing(t, "O_TMPFILE on the temporary directory's filesystem: "+first)
	}
	res := r22Py(t, cw, fmt.Sprintf(`
P = "/proc/%d/fd/%d"
print("R22 chmod", call("chmod", P, 0o4777, 0))
print("R22 setxattr", call("setxattr", P, 0, 0))
print("R22 utimensat", call("utimensat", P, 0, 2001))
`, pid, fd))
	if _, err := stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if l, err := lines.ReadString('\n'); err != nil || strings.TrimSpace(l) != "linked 0" {
		t.Fatalf("the helper did not link its file: %q %v", l, err)
	}
	tool := filepath.Join(cw.outside, "tool")
	var st unix.Stat_t
	if err := unix.Stat(tool, &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o7777 != 0o644 {
		t.Errorf("%s landed with mode %#o, want 0644 (as its process made it): the step, allowed read and write, changed it:\n%s", tool, st.Mode&0o7777, res.Text)
	}
	if n, _ := unix.Listxattr(tool, make([]byte, 256)); n > 0 {
		t.Errorf("%s landed with xattrs the step set:\n%s", tool, res.Text)
	}
	if time.Unix(st.Mtim.Unix()).Before(time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("%s landed with the step's time (%v):\n%s", tool, time.Unix(st.Mtim.Unix()).UTC(), res.Text)
	}
}

// Attack (went through, high; held now; needs a second step allowed more, running
// at the same time): the plan read late. The supervisor reads its
// plan's write rules, and resolves their links (EvalSymlinks), at the
// step's first metadata call, not when Landlock took them (the rules'
// inodes, at the start). A step allowed read, write and exec (not
// protected) has the workspace root split (its .git is protected): src
// is one of its rules. It waits, with no metadata call. A second step,
// approved with protected (the root is writable to it), renames src
// away and puts a link src -> ~/.ssh in its place. The first step's
// first chmod: its judge now takes ~/.ssh as a directory it may write,
// and makes the user's private key 0666. Neither step could change the
// key (secret: never granted). Safe outcome: the key keeps 0600.
func TestRedteam22_RulePathSwappedForALinkBeforeTheFirstCall(t *testing.T) {
	cw := r22Confined(t, gate.Of(gate.Read, gate.Write, gate.Exec))
	judgedB := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected)
	rB := &Runner{Root: cw.runner.Root, Env: cw.runner.Env,
		Gate:   Gate{Policy: cw.runner.Gate.Policy, Auto: func() gate.AutoSet { return gate.AutoOf(judgedB) }, Chain: cw.runner.Gate.Chain},
		Budget: time.Minute, KillGrace: 500 * time.Millisecond, blind: func(gate.Effects) gate.Effects { return judgedB }}
	t.Cleanup(func() { _ = rB.Close() })
	if err := os.WriteFile(cw.path("src/a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan Result, 1)
	go func() {
		done <- r22Py(t, cw, `
import time
open("ROOT/src/ready", "w").close()
end = time.time() + 10
while not os.path.islink("ROOT/src") and time.time() < end:
    pass
print("R22 key", call("chmod", "KEY", 0o666, 0))
`)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !exists(cw.path("src/ready")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	resB := rB.Run(t.Context(), Request{Script: cw.expand(`mv src src.old && ln -s HOME/.ssh src`)})
	resA := <-done
	fi, err := os.Stat(cw.key)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the private key is %v now, changed by a step that may not see it, after another swapped its rule's path for a link:\nfirst step:\n%s\nsecond step:\n%s", fi.Mode(), resA.Text, resB.Text)
	}
}
