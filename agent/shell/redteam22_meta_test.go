//go:build linux

package shell

// The twenty-second red team's attacks on the Landlock metadata judge
// (confine_notify_linux.go) that HELD, kept as regression tests. The
// rows that got through are in redteam22_meta_open_attacks_test.go
// (build tag open_attacks). Each runs a real confined program: under
// `eukhe __confine` (confineDirect: the supervisor, its seccomp filter
// and Landlock, with a plan that reads everything and writes in/) or a
// whole step through the Runner (newConfinedWorld).

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/internal/testkit"
)

// r22World is a base directory with in/ (the step may write it) and
// out/ (it may not), each holding a file f (0600) and a directory d with
// a file g; out's objects carry the xattr user.pre.
type r22World struct{ base, in, out string }

func newR22World(t *testing.T) r22World {
	t.Helper()
	useMechanism(t, Landlock)
	needTool(t, "python3")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := r22World{base: base, in: filepath.Join(base, "in"), out: filepath.Join(base, "out")}
	for _, d := range []string{w.in, w.out} {
		if err := os.MkdirAll(filepath.Join(d, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"f", "d/g"} {
			if err := os.WriteFile(filepath.Join(d, f), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, p := range []string{"out", "out/f", "out/d", "out/d/g"} {
		_ = unix.Setxattr(filepath.Join(base, p), "user.pre", []byte("1"), 0)
	}
	return w
}

// outsidePaths are the objects no row may change (relative to base; ""
// is base itself).
var r22OutsidePaths = []string{"", "out", "out/f", "out/d", "out/d/g"}

func (w r22World) outsideState(t *testing.T) map[string]metaState {
	t.Helper()
	st := map[string]metaState{}
	for _, p := range r22OutsidePaths {
		st[p] = metaOf(t, filepath.Join(w.base, p))
	}
	return st
}

// unchanged fails t for each outside object whose state is not before's,
// and for any name the step added to out/.
func (w r22World) unchanged(t *testing.T, before map[string]metaState, out string) {
	t.Helper()
	for p, s := range before {
		if now := metaOf(t, filepath.Join(w.base, p)); now != s {
			t.Errorf("%q changed by a step that may not write it:\n before %+v\n after  %+v\n%s", p, s, now, out)
		}
	}
	ents, _ := os.ReadDir(w.out)
	for _, e := range ents {
		if e.Name() != "f" && e.Name() != "d" {
			t.Errorf("out/%s appeared:\n%s", e.Name(), out)
		}
	}
}

// run runs the python script in in/ under `eukhe __confine`, writing in/
// only, after the metadata prelude and IN and OUT; it gives the output.
func (w r22World) run(t *testing.T, script string) string {
	t.Helper()
	return confineDirect(t, []string{w.in}, w.in, metaPrelude()+fmt.Sprintf("IN, OUT = %q, %q\n", w.in, w.out)+script)
}

// r22Vals reads the lines "R22 KEY VALUE..." of out.
func r22Vals(out string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "R22" {
			m[f[1]] = strings.Join(f[2:], " ")
		}
	}
	return m
}

// r22NoneZero fails t for each key of want whose errnos (space-separated)
// hold a 0: the call did its work.
func r22NoneZero(t *testing.T, vals map[string]string, want []string, out string) {
	t.Helper()
	for _, k := range want {
		v, ok := vals[k]
		if !ok {
			t.Errorf("%s: no result:\n%s", k, out)
			continue
		}
		for _, e := range strings.Fields(v) {
			if e == "0" {
				t.Errorf("%s: a call through it worked (%s), want each refused:\n%s", k, v, out)
				break
			}
		}
	}
}

// Attack 1: paths through other processes' /proc entries and the
// caller's own: a helper child whose cwd is out/ (/proc/PID/cwd/f), its
// root link (the "root" entry of /proc/PID, then .../out/f), a child
// chrooted to out/ in a user namespace of its own (its "root" entry, then
// f; /proc/PID/cwd/f),
// /proc/self/fd/N, /proc/thread-self/fd/N and /dev/fd/N of a read-only
// descriptor of out/f, /proc/PID/fd/N with the caller's own number. Each
// names an outside object: chmod, utimensat, setxattr and chown are all
// refused. Three more spellings of /proc/self that the supervisor does
// not rewrite (a link in the workspace to /proc/self, //proc/self,
// /proc/./self) reach the supervisor's own /proc entry, not the
// caller's: whatever they reach, nothing outside changes.
func TestRedteam22_ProcPathsOfHelperProcessesAndDescriptors(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	out := w.run(t, `
import subprocess, time
r = os.open(OUT + "/f", os.O_RDONLY)
child = subprocess.Popen(["sleep", "30"], cwd=OUT)
rd, wr = os.pipe()
pid = os.fork()
if pid == 0:
    ok = libc.unshare(0x10000000) == 0 and libc.chroot(OUT.encode()) == 0
    if ok: os.chdir("/")
    os.write(wr, b"1" if ok else b"0")
    time.sleep(30)
    os._exit(0)
rooted = os.read(rd, 1) == b"1"
print("R22 rooted", rooted)
os.symlink("/proc/self", "myproc")
tries = [
    ("child-cwd", "/proc/%d/cwd/f" % child.pid),
    ("child-cwd-dir", "/proc/%d/cwd/d" % child.pid),
    ("child-cwd-itself", "/proc/%d/cwd" % child.pid),
    ("child-root", "/proc/%d/%s%s/f" % (child.pid, "root", OUT)),
    ("chrooted-root", "/proc/%d/%s/f" % (pid, "root")),
    ("chrooted-cwd", "/proc/%d/cwd/f" % pid),
    ("self-fd", "/proc/self/fd/%d" % r),
    ("thread-self-fd", "/proc/thread-self/fd/%d" % r),
    ("dev-fd", "/dev/fd/%d" % r),
    ("own-pid-fd", "/proc/%d/fd/%d" % (os.getpid(), r)),
    ("own-pid-cwd-up", "/proc/%d/cwd/../out/f" % os.getpid()),
    ("link-to-proc-self", "myproc/fd/%d" % r),
    ("double-slash", "//proc/self/fd/%d" % r),
    ("dot-proc", "/proc/./self/fd/%d" % r),
]
for k, p in tries:
    print("R22", k, call("chmod", p, 0o666, 2001), call("utimensat", p, 0, 2001), call("setxattr", p, 0, 0), call("chown", p, 0, 0))
child.kill(); child.wait()
os.kill(pid, 9); os.waitpid(pid, 0)
`)
	vals := r22Vals(out)
	want := []string{"child-cwd", "child-cwd-dir", "child-cwd-itself", "child-root",
		"self-fd", "thread-self-fd", "dev-fd", "own-pid-fd", "own-pid-cwd-up"}
	if vals["rooted"] == "True" {
		want = append(want, "chrooted-root", "chrooted-cwd")
	} else {
		t.Logf("no user namespace here: the chrooted child's rows name in/, not out/:\n%s", out)
	}
	r22NoneZero(t, vals, want, out)
	w.unchanged(t, before, out)
}

// Attack 2: a TOCTOU on the working directory. One thread flips the
// process's cwd (shared: CLONE_FS) between in/ and out/ while the main
// thread calls chmod, utimes, setxattr and fchownat on relative names
// (f, d) for 2 s: the supervisor resolves the name from /proc/TID/cwd at
// its own moment, then judges the object it found, so out/f and out/d
// never change (in/f does).
func TestRedteam22_CwdFlippedBetweenTheCallAndTheJudgment(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	out := w.run(t, `
import threading, time
stop = False
def flip():
    while not stop:
        os.chdir(OUT); os.chdir(IN)
th = threading.Thread(target=flip)
th.start()
ok = 0
end = time.time() + 2
while time.time() < end:
    for _ in range(100):
        if libc.chmod(b"f", 0o666) == 0: ok += 1
        libc.utimes(b"f", None)
        libc.setxattr(b"f", b"user.race", b"v", 1, 0)
        libc.fchownat(AT_FDCWD, b"d", -1, os.getgid(), 0)
stop = True
th.join()
print("R22 changed", ok)
`)
	if n, _ := strconv.Atoi(r22Vals(out)["changed"]); n == 0 {
		t.Errorf("no chmod of in/f worked: the race did not run:\n%s", out)
	}
	w.unchanged(t, before, out)
}

// Attack 3: hard links. Landlock refuses to make a name in in/ for a
// file of out/ (link, linkat through /proc/self/fd with
// AT_SYMLINK_FOLLOW, linkat of an O_PATH descriptor with AT_EMPTY_PATH,
// rename): no inside name of an outside inode exists for a metadata call
// to reach (the refer right: a link may not gain rights). A link that
// existed before the step is the open row
// TestRedteam22_PreexistingHardLinkCarriesTheCallOutside.
func TestRedteam22_StepCannotHardLinkAFileOutsideIn(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	out := w.run(t, `
r = os.open(OUT + "/f", os.O_RDONLY)
p = os.open(OUT + "/f", os.O_PATH)
print("R22 link", res(libc.link((OUT + "/f").encode(), b"h1")))
print("R22 linkat-proc-follow", res(libc.linkat(AT_FDCWD, ("/proc/self/fd/%d" % r).encode(), AT_FDCWD, b"h2", 0x400)))
print("R22 linkat-empty", res(libc.linkat(p, b"", AT_FDCWD, b"h3", EMPTY)))
print("R22 rename-in", res(libc.rename((OUT + "/f").encode(), b"h4")))
print("R22 link-deeper", res(libc.link((OUT + "/d/g").encode(), b"d/h5")))
names = [n for n in ["h1", "h2", "h3", "h4", "d/h5"] if os.path.lexists(n)]
for n in names:
    libc.chmod(n.encode(), 0o4777)
print("R22 names", len(names), *names)
`)
	vals := r22Vals(out)
	r22NoneZero(t, vals, []string{"link", "linkat-proc-follow", "linkat-empty", "rename-in", "link-deeper"}, out)
	if vals["names"] != "0" {
		t.Errorf("the step made inside names of outside files: %s\n%s", vals["names"], out)
	}
	w.unchanged(t, before, out)
}

// Attack 4: between the judge's resolve and its call, swap a directory
// on the path for a link to out/ (renameat2 RENAME_EXCHANGE of in/sub and
// in/lnk -> out, in a loop), and try to rename inside objects out, while
// the main thread calls chmod, utimes, setxattr and lchown on sub/f and
// sub for 2 s. The supervisor performs each call on the descriptor it
// judged, so nothing outside changes.
func TestRedteam22_DirectorySwappedForALinkDuringTheCall(t *testing.T) {
	w := newR22World(t)
	if err := os.MkdirAll(filepath.Join(w.in, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.in, "sub", "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.out, filepath.Join(w.in, "lnk")); err != nil {
		t.Fatal(err)
	}
	before := w.outsideState(t)
	out := w.run(t, `
import threading, time
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
stop = False
moved = [0]
def swap():
    while not stop:
        libc.renameat2(AT_FDCWD, b"sub", AT_FDCWD, b"lnk", 2)
def out_():
    while not stop:
        if libc.rename(b"sub/f", (OUT + "/f2").encode()) == 0: moved[0] += 1
        if libc.rename(b"sub", (OUT + "/sub2").encode()) == 0: moved[0] += 1
ths = [threading.Thread(target=swap), threading.Thread(target=out_)]
for th in ths: th.start()
ok = 0
end = time.time() + 2
while time.time() < end:
    for _ in range(100):
        if libc.chmod(b"sub/f", 0o666) == 0: ok += 1
        libc.utimes(b"sub/f", None)
        libc.setxattr(b"sub/f", b"user.race", b"v", 1, 0)
        libc.chmod(b"sub", 0o777)
        libc.lchown(b"sub/f", -1, os.getgid())
stop = True
for th in ths: th.join()
print("R22 changed", ok)
print("R22 moved", moved[0])
`)
	vals := r22Vals(out)
	if n, _ := strconv.Atoi(vals["changed"]); n == 0 {
		t.Errorf("no chmod of in/sub/f worked: the race did not run:\n%s", out)
	}
	if vals["moved"] != "0" {
		t.Errorf("an inside object was renamed out:\n%s", out)
	}
	w.unchanged(t, before, out)
}

// Attack 5: the call's other forms on outside objects: fchown and fchmod
// of an O_PATH descriptor, fchownat, utimensat, fchmodat2, setxattrat and
// removexattrat with AT_EMPTY_PATH on an O_PATH descriptor, utimensat and
// futimesat with a NULL path on a read-only descriptor (the raw calls),
// fsetxattr and fremovexattr on it, openat2 then fchmod, fchmod of a
// directory descriptor of out/ and fchmodat relative to it, futimesat
// relative to it, fchmodat2 AT_SYMLINK_NOFOLLOW and lsetxattr on a link
// to out/f, utime, and mknod / open(O_CREAT) of a set-user-ID file in
// out/: each is refused, nothing outside changes, and lchown of the link
// changes the link (inside) only.
func TestRedteam22_EveryFormOfTheCallOnAnOutsideObject(t *testing.T) {
	w := newR22World(t)
	if err := os.Symlink(filepath.Join(w.out, "f"), filepath.Join(w.in, "lo")); err != nil {
		t.Fatal(err)
	}
	before := w.outsideState(t)
	out := w.run(t, fmt.Sprintf(`
NR_UTIMENSAT, NR_OPENAT2 = %d, %d
libc.syscall.argtypes = None
O = (OUT + "/f").encode()
p = os.open(O, os.O_PATH)
r = os.open(O, os.O_RDONLY)
d = os.open(OUT, os.O_RDONLY | os.O_DIRECTORY)
a = xa()
print("R22 fchown-opath", res(libc.fchown(p, -1, os.getgid())))
print("R22 fchmod-opath", res(libc.fchmod(p, 0o666)))
print("R22 fchownat-empty", res(libc.fchownat(p, b"", -1, os.getgid(), EMPTY)))
print("R22 utimensat-empty", res(libc.utimensat(p, b"", times(2001), EMPTY)))
print("R22 fchmodat2-empty", res(libc.syscall(NR_FCHMODAT2, p, b"", 0o666, EMPTY)))
print("R22 setxattrat-empty", res(libc.syscall(NR_SETXATTRAT, p, b"", EMPTY, b"user.x", ctypes.byref(a), ctypes.sizeof(a))))
print("R22 removexattrat-empty", res(libc.syscall(NR_REMOVEXATTRAT, p, b"", EMPTY, b"user.pre")))
print("R22 utimensat-null", res(libc.syscall(NR_UTIMENSAT, r, None, ctypes.byref(times(2001)), 0)))
print("R22 futimesat-null", res(libc.futimesat(r, None, None)))
print("R22 fsetxattr", res(libc.fsetxattr(r, b"user.x", b"v", 1, 0)))
print("R22 fremovexattr", res(libc.fremovexattr(r, b"user.pre")))
class OH(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]
oh = OH(0, 0, 0)
o2 = libc.syscall(NR_OPENAT2, AT_FDCWD, O, ctypes.byref(oh), ctypes.sizeof(oh))
print("R22 openat2-fchmod", res(libc.fchmod(o2, 0o666)) if o2 >= 0 else "open-failed")
print("R22 fchmod-dirfd", res(libc.fchmod(d, 0o777)))
print("R22 fchmodat-dirfd", res(libc.fchmodat(d, b"d", 0o777, 0)))
print("R22 futimesat-dirfd", res(libc.futimesat(d, b"f", None)))
print("R22 lchmod2-link", res(libc.syscall(NR_FCHMODAT2, AT_FDCWD, b"lo", 0o666, NOFOLLOW)))
print("R22 lsetxattr-link", res(libc.lsetxattr(b"lo", b"user.x", b"v", 1, 0)))
print("R22 utime", res(libc.utime(O, None)))
os.umask(0)
print("R22 mknod-setuid", res(libc.mknod((OUT + "/m").encode(), 0o100000 | 0o6777, 0)))
try:
    os.close(os.open(OUT + "/c", os.O_CREAT | os.O_WRONLY, 0o6777)); print("R22 creat-setuid 0")
except OSError as e:
    print("R22 creat-setuid", e.errno)
print("R22 lchown-link-inside", res(libc.lchown(b"lo", -1, os.getgid())))
`, unix.SYS_UTIMENSAT, unix.SYS_OPENAT2))
	vals := r22Vals(out)
	r22NoneZero(t, vals, []string{"fchown-opath", "fchmod-opath", "fchownat-empty", "utimensat-empty", "fchmodat2-empty",
		"setxattrat-empty", "removexattrat-empty", "utimensat-null", "futimesat-null", "fsetxattr", "fremovexattr",
		"openat2-fchmod", "fchmod-dirfd", "fchmodat-dirfd", "futimesat-dirfd", "lchmod2-link", "lsetxattr-link", "utime",
		"mknod-setuid", "creat-setuid"}, out)
	if vals["lchown-link-inside"] != "0" {
		t.Errorf("lchown of the inside link was refused:\n%s", out)
	}
	w.unchanged(t, before, out)
}

// r22Int80 is python that defines int80(nr, a, b, c, d, e): the i386
// system call nr made with int 0x80 from a page below 4 GiB (MAP_32BIT),
// whose arguments are constants; buf32(bytes) copies bytes there and
// gives their address.
const r22Int80 = `
import struct
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
PAGE = libc.mmap(None, 8192, 7, 0x22 | 0x40, -1, 0)
_at = [PAGE + 4096]
def buf32(b):
    a = _at[0]
    ctypes.memmove(a, b, len(b))
    _at[0] += (len(b) + 15) & ~15
    return a
def int80(nr, a=0, b=0, c=0, d=0, e=0):
    u = lambda v: struct.pack("<I", v & 0xffffffff)
    code = b"\x53\xb8" + u(nr) + b"\xbb" + u(a) + b"\xb9" + u(b) + b"\xba" + u(c) + b"\xbe" + u(d) + b"\xbf" + u(e) + b"\xcd\x80\x5b\xc3"
    ctypes.memmove(PAGE, code, len(code))
    return ctypes.CFUNCTYPE(ctypes.c_int)(PAGE)()
`

// Attack 5b: the calls by another ABI, whose numbers the filter does not
// send to the supervisor: the i386 chmod, fchownat, setxattr and
// utimensat made with int 0x80, and the x32 chmod and fchownat (amd64),
// and io_uring (whose requests seccomp does not see): each fails
// (ENOSYS, EACCES) and nothing outside changes. Unconfined, the same
// int 0x80 chmod works (the control).
func TestRedteam22_OtherABIsAndIoUringCannotChangeAnOutsideFile(t *testing.T) {
	w := newR22World(t)
	amd64 := runtime.GOARCH == "amd64"
	int80 := amd64
	if amd64 {
		// the control: int 0x80 works on this kernel unconfined
		ctl := filepath.Join(w.base, "ctl")
		if err := os.WriteFile(ctl, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		py := realPython(t)
		out, err := r22ExecOutput(py, "-c", metaPrelude()+r22Int80+fmt.Sprintf("print(int80(15, buf32(%q.encode() + b'\\0'), 0o640))", ctl))
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee) && ee.ProcessState.Sys().(syscall.WaitStatus).Signal() == syscall.SIGSEGV:
			// a kernel without IA-32 emulation (ia32_emulation=0) ends
			// an int 0x80 with SIGSEGV: no such call can be made here
			t.Logf("int 0x80 ends the process here (no IA-32 emulation): the row checks the x32 calls and io_uring only")
			int80 = false
		case err != nil:
			t.Fatalf("the control: %v\n%s", err, out)
		}
		if fi, err := os.Stat(ctl); int80 && (err != nil || fi.Mode().Perm() != 0o640) {
			t.Logf("int 0x80 does not work here unconfined (no IA-32 emulation): the row checks only that it fails confined")
		}
	}
	before := w.outsideState(t)
	script := `
print("R22 io_uring_setup", res(libc.syscall(425, 4, ctypes.create_string_buffer(120))))
`
	if int80 {
		script += r22Int80 + `
O = buf32((OUT + "/f").encode() + b"\0")
N, V = buf32(b"user.x\0"), buf32(b"v")
print("R22 int80-chmod", int80(15, O, 0o666))
print("R22 int80-fchownat", int80(298, -100, O, -1, os.getgid(), 0))
print("R22 int80-setxattr", int80(226, O, N, V, 1, 0))
print("R22 int80-utimensat", int80(320, -100, O, 0, 0))
`
	}
	if amd64 {
		script += `
print("R22 x32-chmod", res(libc.syscall(0x40000000 | 90, (OUT + "/f").encode(), 0o666)))
print("R22 x32-fchownat", res(libc.syscall(0x40000000 | 260, AT_FDCWD, (OUT + "/f").encode(), -1, os.getgid(), 0)))
`
	}
	out := w.run(t, script)
	want := []string{"io_uring_setup"}
	if int80 {
		want = append(want, "int80-chmod", "int80-fchownat", "int80-setxattr", "int80-utimensat")
	}
	if amd64 {
		want = append(want, "x32-chmod", "x32-fchownat")
	}
	r22NoneZero(t, r22Vals(out), want, out)
	w.unchanged(t, before, out)
}

func r22ExecOutput(name string, args ...string) (string, error) {
	b, err := exec.Command(name, args...).CombinedOutput()
	return string(b), err
}

// Attack 6a: a caller that made itself non-dumpable
// (prctl(PR_SET_DUMPABLE, 0)): the supervisor, with no capability, may
// not read its memory or its /proc entries, so its calls fail (EFAULT):
// refused, never let through on a path it could not read; nothing
// outside changes.
func TestRedteam22_NonDumpableCallerIsRefusedNotLetThrough(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	out := w.run(t, `
libc.prctl(4, 0, 0, 0, 0)
r = os.open(OUT + "/f", os.O_RDONLY)
print("R22 chmod-out", res(libc.chmod((OUT + "/f").encode(), 0o666)))
print("R22 chmod-rel", res(libc.chmod(b"../out/d", 0o777)))
print("R22 fchmod-out", res(libc.fchmod(r, 0o666)))
print("R22 setxattr-out", res(libc.setxattr((OUT + "/f").encode(), b"user.x", b"v", 1, 0)))
print("R22 utimes-out", res(libc.utimes((OUT + "/f").encode(), None)))
print("R22 chmod-in", res(libc.chmod(b"f", 0o640)))
`)
	r22NoneZero(t, r22Vals(out), []string{"chmod-out", "chmod-rel", "fchmod-out", "setxattr-out", "utimes-out"}, out)
	t.Logf("a non-dumpable caller's inside chmod gives %s (0 works; EFAULT=14 breaks it, safely)", r22Vals(out)["chmod-in"])
	w.unchanged(t, before, out)
}

// Attack 6b: denial. 30 processes call chmod in a loop, on in/f and out/f
// alternately, and are killed mid-call (SIGKILL, three rounds: their
// numbers are free for reuse while the supervisor may hold their
// calls); then a chmod inside is answered at once, the step ends within
// its time, and out/f never changed.
func TestRedteam22_FloodAndKilledCallersDoNotHangTheSupervisor(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	out := w.run(t, `
import time, signal, threading
t0 = time.time()
for rnd in range(3):
    kids = []
    for i in range(30):
        pid = os.fork()
        if pid == 0:
            while True:
                libc.chmod(b"f", 0o644)
                libc.chmod((OUT + "/f").encode(), 0o666)
                libc.setxattr((OUT + "/f").encode(), b"user.x", b"v", 1, 0)
        kids.append(pid)
    time.sleep(0.3)
    for p in kids: os.kill(p, signal.SIGKILL)
    for p in kids: os.waitpid(p, 0)
r = {}
def last():
    r["c"] = res(libc.chmod(b"f", 0o604))
th = threading.Thread(target=last, daemon=True)
th.start()
th.join(5)
print("R22 after", r.get("c", "stuck"))
print("R22 secs", round(time.time() - t0, 1))
sys.stdout.flush()
os._exit(0)
`)
	vals := r22Vals(out)
	if vals["after"] != "0" {
		t.Errorf("after the flood, a chmod inside gave %q, want 0 at once:\n%s", vals["after"], out)
	}
	w.unchanged(t, before, out)
	if fi, err := os.Stat(filepath.Join(w.in, "f")); err != nil || fi.Mode().Perm() != 0o604 {
		t.Errorf("in/f: %v %v, want 0604", fi, err)
	}
}

// Attack 6c: stall the supervisor on the caller's memory: the path's
// pointer lies on a page registered with userfaultfd (missing mode), so
// the supervisor's process_vm_readv would wait on the step's fault
// handler, which never answers. Unprivileged, the kernel gives only a
// user-mode-only userfaultfd (vm.unprivileged_userfaultfd=0), whose page
// fails the supervisor's read (EFAULT) rather than waiting: the call
// ends within 3 s and the next call is answered.
func TestRedteam22_UserfaultfdCannotStallTheSupervisor(t *testing.T) {
	w := newR22World(t)
	out := w.run(t, `
import fcntl, struct, threading
uffd = libc.syscall(323, 0o2000000 | 0o4000)
kind = "full"
if uffd < 0:
    uffd = libc.syscall(323, 0o2000000 | 0o4000 | 1)
    kind = "usermode"
print("R22 uffd", kind if uffd >= 0 else "none")
if uffd >= 0:
    fcntl.ioctl(uffd, 0xc018aa3f, bytearray(struct.pack("QQQ", 0xAA, 0, 0)), True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    page = libc.mmap(None, 4096, 3, 0x22, -1, 0)
    fcntl.ioctl(uffd, 0xc020aa00, bytearray(struct.pack("QQQQ", page, 4096, 1, 0)), True)
    r = {}
    def stalled():
        r["uffd"] = res(libc.chmod(ctypes.c_void_p(page), 0o640))
    th = threading.Thread(target=stalled, daemon=True)
    th.start()
    th.join(3)
    print("R22 stalled-call", r.get("uffd", "stuck"))
    def nxt():
        r["next"] = res(libc.chmod(b"f", 0o640))
    th = threading.Thread(target=nxt, daemon=True)
    th.start()
    th.join(3)
    print("R22 next-call", r.get("next", "stuck"))
sys.stdout.flush()
os._exit(0)
`)
	vals := r22Vals(out)
	if vals["uffd"] == "none" {
		t.Logf("no userfaultfd here at all: nothing to stall with:\n%s", out)
		return
	}
	if vals["stalled-call"] == "stuck" || vals["next-call"] != "0" {
		t.Errorf("a call whose path lies on a userfaultfd page stalled the supervisor (%s userfaultfd):\n%s", vals["uffd"], out)
	}
}

// Attack 6d: the step goes for its supervisor (its parent): SIGSTOP (every
// metadata call would then wait forever), ptrace attach, pidfd_getfd of
// each of its first 16 descriptors (the listener: answering its own calls
// with SECCOMP_USER_NOTIF_FLAG_CONTINUE would let every call through),
// opening its /proc/PID/mem. Landlock's scope (signals, ptrace) refuses
// each; the next chmod inside is answered.
func TestRedteam22_StepCannotStopOrRobItsSupervisor(t *testing.T) {
	w := newR22World(t)
	out := w.run(t, `
import signal, threading
pp = os.getppid()
try:
    os.kill(pp, signal.SIGSTOP); print("R22 sigstop 0")
except OSError as e:
    print("R22 sigstop", e.errno)
print("R22 ptrace-attach", res(libc.ptrace(16, pp, None, None)))
pidfd = libc.syscall(434, pp, 0)
got = [n for n in range(16) if pidfd >= 0 and libc.syscall(438, pidfd, n, 0) >= 0]
print("R22 getfd", len(got), *got)
try:
    os.close(os.open("/proc/%d/mem" % pp, os.O_RDONLY)); print("R22 mem 0")
except OSError as e:
    print("R22 mem", e.errno)
r = {}
def nxt():
    r["c"] = res(libc.chmod(b"f", 0o640))
th = threading.Thread(target=nxt, daemon=True)
th.start()
th.join(3)
print("R22 next-call", r.get("c", "stuck"))
if r.get("c") is None:
    os.kill(pp, signal.SIGCONT)
sys.stdout.flush()
os._exit(0)
`)
	vals := r22Vals(out)
	r22NoneZero(t, vals, []string{"sigstop", "ptrace-attach", "mem"}, out)
	if vals["getfd"] != "0" {
		t.Errorf("the step took descriptors of its supervisor: %s\n%s", vals["getfd"], out)
	}
	if vals["next-call"] != "0" {
		t.Errorf("after the attempts, a chmod inside gave %q:\n%s", vals["next-call"], out)
	}
}

// Attack 7: the supervisor performs the calls: does it hold a capability
// the step does not (it is eukhe, root here)? A chmod u+s of an inside
// file another user owns (CAP_FOWNER), a chown of an own file to another
// user and a chgrp to a group the caller is not in (CAP_CHOWN), a chmod
// g+s of a file and a directory whose group the caller is not in (kept
// only with CAP_FSETID), explicit times on the other user's file: each is
// refused or drops the bit, as for the step itself. Needs root to give
// files to another user; as another user, only the chown rows run.
func TestRedteam22_SupervisorPerformsWithNoCapability(t *testing.T) {
	w := newR22World(t)
	const other = 54321
	root := os.Geteuid() == 0
	if root {
		for _, f := range []string{"other", "grp"} {
			if err := os.WriteFile(filepath.Join(w.in, f), []byte("x"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Mkdir(filepath.Join(w.in, "grpd"), 0o775); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name     string
			uid, gid int
		}{{"other", other, other}, {"grp", 0, other}, {"grpd", 0, other}} {
			if err := os.Chown(filepath.Join(w.in, c.name), c.uid, c.gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := w.outsideState(t)
	out := w.run(t, fmt.Sprintf(`
OTHER, ROOT = %d, %v
print("R22 chown-to-other", res(libc.chown(b"f", OTHER, -1)))
print("R22 chgrp-to-other", res(libc.chown(b"f", -1, OTHER)))
if ROOT:
    print("R22 chmod-setuid-others", res(libc.chmod(b"other", 0o4755)))
    print("R22 times-others", res(libc.utimensat(AT_FDCWD, b"other", times(2001), 0)))
    print("R22 setxattr-others", res(libc.setxattr(b"other", b"user.x", b"v", 1, 0)))
    print("R22 chmod-setgid-grp", res(libc.chmod(b"grp", 0o2755)))
    print("R22 chmod-setgid-grpd", res(libc.chmod(b"grpd", 0o2775)))
`, other, map[bool]string{true: "True", false: "False"}[root]))
	vals := r22Vals(out)
	want := []string{"chown-to-other", "chgrp-to-other"}
	if root {
		want = append(want, "chmod-setuid-others", "times-others", "setxattr-others")
		for _, n := range []string{"grp", "grpd"} {
			fi, err := os.Stat(filepath.Join(w.in, n))
			if err != nil || fi.Mode()&os.ModeSetgid != 0 {
				t.Errorf("in/%s: %v %v: the set-group-ID bit of a group the caller is not in was kept (CAP_FSETID):\n%s", n, fi, err, out)
			}
		}
		if fi, err := os.Stat(filepath.Join(w.in, "other")); err != nil || fi.Mode() != 0o755 {
			t.Errorf("in/other: %v %v, want 0755 untouched:\n%s", fi, err, out)
		}
	}
	r22NoneZero(t, vals, want, out)
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(w.in, "f"), &st); err != nil || st.Uid != uint32(os.Geteuid()) || st.Gid != uint32(os.Getegid()) {
		t.Errorf("in/f's owner changed: %+v %v\n%s", st, err, out)
	}
	w.unchanged(t, before, out)
}

// Attack 8: a caller whose root is out/ (chroot in a user namespace of
// its own) names "/f", which is out/f to it; the supervisor resolves
// absolute paths from its own root, so it refuses every call of such a
// caller (EPERM): out/f does not change, nor does in/f through "f" (the
// cwd left outside the new root).
func TestRedteam22_ChrootedCallerIsRefused(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	inBefore := metaOf(t, filepath.Join(w.in, "f"))
	out := w.run(t, `
rd, wr = os.pipe()
pid = os.fork()
if pid == 0:
    if libc.unshare(0x10000000) != 0 or libc.chroot(OUT.encode()) != 0:
        os.write(wr, b"R22 rooted no\n"); os._exit(0)
    msg = "R22 rooted yes\nR22 abs %d %d %d\nR22 rel %d\n" % (res(libc.chmod(b"/f", 0o666)), res(libc.setxattr(b"/f", b"user.x", b"v", 1, 0)), res(libc.utimes(b"/d", None)), res(libc.chmod(b"f", 0o666)))
    os.write(wr, msg.encode()); os._exit(0)
os.close(wr)
os.waitpid(pid, 0)
print(os.read(rd, 4096).decode())
`)
	vals := r22Vals(out)
	if vals["rooted"] != "yes" {
		testkit.Missing(t, "a user namespace (unshare(CLONE_NEWUSER)) to chroot in:\n"+out)
		return
	}
	r22NoneZero(t, vals, []string{"abs", "rel"}, out)
	if now := metaOf(t, filepath.Join(w.in, "f")); now != inBefore {
		t.Errorf("in/f changed through a chrooted caller's relative name:\n%s", out)
	}
	w.unchanged(t, before, out)
}

// Attack (went through, low: the wrong object, inside; held since stop
// 41): /proc/self in a thread with a descriptor table (unshare(CLONE_FILES))
// or a working directory (unshare(CLONE_FS)) of its own. To the kernel,
// /proc/self is the thread group's leader, whose table and cwd are not the
// thread's; the supervisor rewrote /proc/self to /proc/TID, the calling
// thread's, so chmod("/proc/self/fd/50") changed in/b (the thread's 50)
// instead of in/a (the process's 50). callerPath now reads /proc/self as
// the thread group, /proc/thread-self as the thread. Safe outcome: the call
// does what it does unconfined.
func TestRedteam22_ProcSelfInAThreadNamesTheLeadersObjects(t *testing.T) {
	w := newR22World(t)
	for _, f := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(w.in, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := w.run(t, `
import threading
os.dup2(os.open("a", os.O_RDONLY), 50)
r = {}
def th():
    assert libc.unshare(0x400) == 0   # CLONE_FILES: a table of this thread's own
    os.dup2(os.open("b", os.O_RDONLY), 50)
    r["fd"] = res(libc.chmod(b"/proc/self/fd/50", 0o640))
    assert libc.unshare(0x200) == 0   # CLONE_FS: a cwd of its own
    os.chdir(OUT)
    r["cwd"] = res(libc.chmod(b"/proc/self/cwd/c", 0o604))
t = threading.Thread(target=th)
t.start()
t.join()
print("R22 fd", r["fd"])
print("R22 cwd", r["cwd"])
`)
	mode := func(f string) os.FileMode {
		fi, err := os.Stat(filepath.Join(w.in, f))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if a, b := mode("a"), mode("b"); a != 0o640 || b != 0o600 {
		t.Errorf("chmod of /proc/self/fd/50 from a thread with its own table: a %v, b %v; want a 0640 (the process's 50), b untouched:\n%s", a, b, out)
	}
	if c := mode("c"); c != 0o604 || r22Vals(out)["cwd"] != "0" {
		t.Errorf("chmod of /proc/self/cwd/c from a thread with its own cwd: c %v, result %s; want 0604 (the leader's cwd is in/):\n%s", c, r22Vals(out)["cwd"], out)
	}
}
