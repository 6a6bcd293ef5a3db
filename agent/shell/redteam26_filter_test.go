//go:build linux

package shell

// The twenty-sixth red team's rows on the Landlock step's filter (the
// calls above the last known, file_setattr, the inode ioctls) and on the
// rule objects the inner run opens once (openRuleObjects, sendRules,
// receiveFDs). The rows that HELD are here; the ones that got through
// are in redteam26_open_attacks_test.go (build tag open_attacks).

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/gate/confine"
)

// r26Filter runs the Landlock step's filter (with the supervisor's
// return for the metadata calls) in x/net/bpf's interpreter on call nr
// with ioctl request req as its second argument's low half, and gives
// what it returns.
func r26Filter(t *testing.T, nr, req uint32) uint32 {
	t.Helper()
	arch, ok := nativeArch()
	if !ok {
		t.Skipf("no filter for %s", runtime.GOARCH)
	}
	raw, err := confineFilter(false, false, metaNumbers(), unix.SECCOMP_RET_USER_NOTIF)
	if err != nil {
		t.Fatal(err)
	}
	insns, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	vm, err := bpf.NewVM(insns)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[dataNr:], nr)
	binary.BigEndian.PutUint32(data[dataArch:], arch)
	binary.BigEndian.PutUint32(data[dataArg1:], req)
	got, err := vm.Run(data)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(got)
}

var (
	r26Enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	r26Eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
)

// Attack (change 2, the filter's new tests; held): every call number
// from 472 up to the x32 bit (a kernel newer than the filter: a
// file_setattr of tomorrow), file_setattr itself, and the metadata calls
// right beside the new tests (fchmodat2, setxattrat, removexattrat: the
// order of the tests must not let the ENOSYS/EPERM tests shadow them, or
// them shadow the new ones). Held: above 471 ENOSYS, 469 EPERM, each
// metadata call to the supervisor, 470 and 471 (not known to change a
// file) allowed.
func TestRedteam26_CallsAboveTheLastKnownAndBesideIt(t *testing.T) {
	for nr := uint32(lastKnownSyscall + 1); nr < 0x2000; nr++ {
		if got := r26Filter(t, nr, 0); got != r26Enosys {
			t.Fatalf("call %d: %#x, want ENOSYS", nr, got)
		}
	}
	if got := r26Filter(t, unix.SYS_FILE_SETATTR, 0); got != r26Eperm {
		t.Errorf("file_setattr: %#x, want EPERM", got)
	}
	for _, nr := range metaNumbers() {
		if got := r26Filter(t, nr, 0); got != unix.SECCOMP_RET_USER_NOTIF {
			t.Errorf("metadata call %d: %#x, want the supervisor", nr, got)
		}
	}
	for _, nr := range []uint32{470, 471, unix.SYS_OPENAT, unix.SYS_FILE_GETATTR} {
		if got := r26Filter(t, nr, 0); got != unix.SECCOMP_RET_ALLOW {
			t.Errorf("call %d: %#x, want allowed", nr, got)
		}
	}
	for _, req := range inodeIoctls {
		if got := r26Filter(t, unix.SYS_IOCTL, req); got != r26Eperm {
			t.Errorf("ioctl %#x: %#x, want EPERM", req, got)
		}
	}
}

// r26pair is a connected SOCK_SEQPACKET pair as the supervisor's (the
// receiving end as an *os.File), closed in t.Cleanup.
func r26pair(t *testing.T) (recv *os.File, send int) {
	t.Helper()
	p, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	recv = os.NewFile(uintptr(p[0]), "recv")
	t.Cleanup(func() { recv.Close(); unix.Close(p[1]) })
	return recv, p[1]
}

// r26open opens n O_PATH descriptors of dir.
func r26open(t *testing.T, dir string, n int) []int {
	t.Helper()
	var fds []int
	for i := 0; i < n; i++ {
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		fds = append(fds, fd)
	}
	t.Cleanup(func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	return fds
}

// r26openCount is how many descriptors this process holds.
func r26openCount(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// Attack (change 1, the rules' messages): the messages that carry the
// write rules to the supervisor broken off or stretched: a first message
// (byte 0) then the end; a message with no descriptor that says it is
// the last; more than maxRuleFDs descriptors in messages that never say
// last; a last message past maxRuleFDs; and sendRules given more rules
// than maxRuleFDs. Held: receiveFDs takes nothing (and closes what it
// took) unless the messages end as sendRules ends them within the bound,
// and a full send arrives whole, truncated at maxRuleFDs (what is left
// out is refused, never more allowed).
func TestRedteam26_RuleMessagesBrokenOffOrStretched(t *testing.T) {
	dir := t.TempDir()
	send1 := func(t *testing.T, s int, last byte, fds []int) {
		var oob []byte
		if len(fds) > 0 {
			oob = unix.UnixRights(fds...)
		}
		if err := unix.Sendmsg(s, []byte{last}, oob, nil, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("first message then the end", func(t *testing.T) {
		recv, s := r26pair(t)
		before := r26openCount(t)
		send1(t, s, 0, r26open(t, dir, 5))
		unix.Shutdown(s, unix.SHUT_WR)
		if got := receiveFDs(recv); got != nil {
			t.Errorf("a broken-off send gave %d descriptors", len(got))
		}
		if n := r26openCount(t); n != before+5 {
			t.Errorf("%d descriptors open after, want %d (the received ones closed)", n, before+5)
		}
	})
	t.Run("last with no descriptor", func(t *testing.T) {
		recv, s := r26pair(t)
		send1(t, s, 0, r26open(t, dir, 3))
		send1(t, s, 1, nil)
		if got := receiveFDs(recv); got != nil {
			t.Errorf("a last message with no descriptor gave %d descriptors", len(got))
		}
	})
	t.Run("never last, past the bound", func(t *testing.T) {
		recv, s := r26pair(t)
		fds := r26open(t, dir, fdsPerMessage)
		go func() {
			for i := 0; i < maxRuleFDs/fdsPerMessage+2; i++ {
				if unix.Sendmsg(s, []byte{0}, unix.UnixRights(fds...), nil, 0) != nil {
					return
				}
			}
		}()
		if got := receiveFDs(recv); got != nil {
			t.Errorf("messages past the bound gave %d descriptors", len(got))
		}
	})
	t.Run("a last message past the bound", func(t *testing.T) {
		recv, s := r26pair(t)
		fds := r26open(t, dir, fdsPerMessage)
		go func() {
			for i := 0; i < maxRuleFDs/fdsPerMessage; i++ {
				if unix.Sendmsg(s, []byte{0}, unix.UnixRights(fds...), nil, 0) != nil {
					return
				}
			}
			unix.Sendmsg(s, []byte{1}, unix.UnixRights(fds[:2]...), nil, 0)
		}()
		if got := receiveFDs(recv); got != nil {
			t.Errorf("a last message past the bound gave %d descriptors", len(got))
		}
	})
	t.Run("sendRules of more rules than the bound", func(t *testing.T) {
		recv, s := r26pair(t)
		rules := r26open(t, dir, maxRuleFDs+300)
		lis := r26open(t, "/", 1)[0]
		errc := make(chan error, 1)
		go func() { errc <- sendRules(s, lis, rules) }()
		got := receiveFDs(recv)
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		if len(got) != 1+maxRuleFDs {
			t.Fatalf("%d descriptors arrived, want %d", len(got), 1+maxRuleFDs)
		}
		var st, want unix.Stat_t
		unix.Fstat(got[0], &st)
		unix.Stat("/", &want)
		if st.Ino != want.Ino || st.Dev != want.Dev {
			t.Errorf("the first descriptor is not the listener's")
		}
		unix.Stat(dir, &want)
		for _, fd := range got[1:] {
			unix.Fstat(fd, &st)
			if st.Ino != want.Ino || st.Dev != want.Dev {
				t.Fatalf("a rule arrived as another object")
			}
		}
		for _, fd := range got {
			unix.Close(fd)
		}
	})
}

// Attack (change 1, openRuleObjects): rules whose paths changed since
// the plan walked them: a link in a middle part (a parent directory
// swapped for a link to a directory the plan never granted), a link at
// the end, a magic link of /proc (/proc/self/cwd, the root entry of /proc/self: a
// path that names an open object, as the /proc/self/fd/N Landlock now
// takes does), a directory's rule now a file and a file's rule now a
// directory. Held: each is left out (what it would allow is denied);
// the others are kept, each on its own object, in the plan's order.
func TestRedteam26_RuleObjectsThatChangedSincePlan(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("secret/inner")
	mk("ok")
	mk("nowfile.d")
	if err := os.WriteFile(filepath.Join(base, "ok/f"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret"), filepath.Join(base, "mid")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret"), filepath.Join(base, "end")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "nowfile"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	plan := confine.LandlockPlan{Rules: []confine.LandlockRule{
		{Path: filepath.Join(base, "mid", "inner"), Dir: true, Write: true},
		{Path: filepath.Join(base, "end"), Dir: true, Write: true},
		{Path: "/proc/self/cwd", Dir: true, Write: true},
		{Path: "/proc/self/" + "ro" + "ot", Dir: true}, // spelled in parts: not a path of a machine
		{Path: filepath.Join(base, "nowfile"), Dir: true, Write: true},
		{Path: filepath.Join(base, "nowfile.d"), Write: true},
		{Path: filepath.Join(base, "ok"), Dir: true, Write: true},
		{Path: filepath.Join(base, "ok", "f"), Write: true},
	}}
	set, err := openRuleObjects(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer set.close()
	var kept []string
	for _, o := range set {
		kept = append(kept, o.rule.Path)
	}
	want := []string{filepath.Join(base, "ok"), filepath.Join(base, "ok", "f")}
	if strings.Join(kept, "\n") != strings.Join(want, "\n") {
		t.Errorf("THROUGH: kept %q, want only %q", kept, want)
	}
	if len(set.writes()) != 2 {
		t.Errorf("%d write objects, want 2", len(set.writes()))
	}
}

// Attack (change 1, EMFILE): a plan of more rules than descriptors left
// (a step started with a low RLIMIT_NOFILE, or a root of many entries):
// openRuleObjects must not hand Landlock a partial set it takes for the
// whole (a missing rule only denies, but a set cut short at EMFILE must
// be an error, and nothing it opened may stay open). Held: an error, and
// every descriptor it opened is closed.
func TestRedteam26_RuleObjectsPastTheDescriptorLimit(t *testing.T) {
	dir := t.TempDir()
	var plan confine.LandlockPlan
	for i := 0; i < 64; i++ {
		plan.Rules = append(plan.Rules, confine.LandlockRule{Path: dir, Dir: true, Write: true})
	}
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	before := r26openCount(t)
	low := old
	low.Cur = uint64(before + 20)
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	set, err := openRuleObjects(plan)
	unix.Setrlimit(unix.RLIMIT_NOFILE, &old)
	if err == nil {
		set.close()
		t.Fatalf("THROUGH: %d of %d rules opened, no error", len(set), len(plan.Rules))
	}
	if n := r26openCount(t); n > before {
		t.Errorf("%d descriptors open after the error, %d before", n, before)
	}
}

// Attack (change 2, the calls the filter lets by): the step takes its
// supervisor's descriptors, the seccomp listener among them (with it, a
// program answers its own metadata calls: SECCOMP_USER_NOTIF_FLAG_CONTINUE
// runs a chmod of ~/.ssh as the kernel would), and the rule objects:
// pidfd_getfd on a pidfd of its parent (the supervisor) for every
// number, /proc/PPID/fd, PTRACE_ATTACH and process_vm_readv of the
// parent. The filter allows all four calls. Held: Landlock scopes
// ptrace to the step's own domain (pidfd_getfd, /proc/PID/fd and
// process_vm_readv check ptrace access), so each fails.
func TestRedteam26_SupervisorsListenerCannotBeTaken(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	dir := t.TempDir()
	out := confineDirect(t, []string{dir}, dir, `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
pp = os.getppid()
pfd = libc.syscall(434, pp, 0)
print("R26 pidfd", pfd)
got = []
for n in range(0, 256):
    r = libc.syscall(438, pfd, n, 0)
    if r >= 0:
        got.append("%d=%s" % (n, os.readlink("/proc/self/fd/%d" % r)))
print("R26 getfd", " ".join(got) or "none")
try:
    print("R26 procfd", " ".join(os.readlink("/proc/%d/fd/%s" % (pp, n)) for n in os.listdir("/proc/%d/fd" % pp)))
except OSError as e:
    print("R26 procfd refused", e.errno)
print("R26 ptrace", libc.ptrace(16, pp, 0, 0), ctypes.get_errno())
class IOV(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(8)
loc = IOV(ctypes.addressof(buf), 8)
rem = IOV(0x400000, 8)
L = ctypes.c_long
print("R26 vmread", libc.syscall(L(310), L(pp), ctypes.byref(loc), L(1), ctypes.byref(rem), L(1), L(0)), ctypes.get_errno())
`)
	vals := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "R26" {
			vals[f[1]] = strings.Join(f[2:], " ")
		}
	}
	if vals["pidfd"] == "" || strings.HasPrefix(vals["pidfd"], "-") {
		t.Logf("no pidfd of the parent (%s): pidfd_getfd is not tried", vals["pidfd"])
	}
	t.Logf("the step saw:\n%s", out)
	if vals["getfd"] != "none" {
		t.Errorf("THROUGH: the supervisor's descriptors were taken: %s\n%s", vals["getfd"], out)
	}
	if !strings.HasPrefix(vals["procfd"], "refused") {
		t.Errorf("THROUGH: the supervisor's descriptors are listed: %s\n%s", vals["procfd"], out)
	}
	if !strings.HasPrefix(vals["ptrace"], "-1") {
		t.Errorf("THROUGH: the supervisor was traced: %s\n%s", vals["ptrace"], out)
	}
	if runtime.GOARCH == "amd64" && !strings.HasPrefix(vals["vmread"], "-1") {
		t.Errorf("THROUGH: the supervisor's memory was read: %s\n%s", vals["vmread"], out)
	}
}

// Attack (change 2, the calls at or below 471 the filter lets by): a
// step that makes a user namespace of its own (where it holds
// CAP_SYS_ADMIN over a mount namespace of its own) and changes the tree
// it sees: mount(2) of a tmpfs on out/, fsopen+fsmount+move_mount of one
// there, open_tree(OPEN_TREE_CLONE) of out/ and a write to f through the
// detached tree, and mount_setattr on that tree. Held: Landlock refuses
// every change to the mount tree of a process it confines, and a
// detached tree grants nothing (its walk ends at its own root); out/f
// stays as it was.
func TestRedteam26_MountCallsInANamespaceOfItsOwn(t *testing.T) {
	w := newR22World(t)
	before := w.outsideState(t)
	res := w.run(t, `
NR_OPEN_TREE, NR_MOVE_MOUNT, NR_FSOPEN, NR_FSCONFIG, NR_FSMOUNT, NR_MOUNT_SETATTR = 428, 429, 430, 431, 432, 442
L = ctypes.c_long
r = libc.unshare(0x10000000 | 0x00020000)
print("R26 unshare", res(r))
print("R26 mount", res(libc.mount(b"none", OUT.encode(), b"tmpfs", L(0), None)))
fs = libc.syscall(L(NR_FSOPEN), b"tmpfs", L(0))
if fs >= 0:
    libc.syscall(L(NR_FSCONFIG), L(fs), L(6), None, None, L(0))
    m = libc.syscall(L(NR_FSMOUNT), L(fs), L(0), L(0))
    print("R26 fsmount", 0 if m >= 0 else ctypes.get_errno())
    if m >= 0:
        print("R26 move_mount", res(libc.syscall(L(NR_MOVE_MOUNT), L(m), b"", L(AT_FDCWD), OUT.encode(), L(4))))
else:
    print("R26 fsopen", ctypes.get_errno())
t = libc.syscall(L(NR_OPEN_TREE), L(AT_FDCWD), OUT.encode(), L(1 | 0x80000))
print("R26 open_tree", 0 if t >= 0 else ctypes.get_errno())
if t >= 0:
    try:
        fd = os.open("f", os.O_WRONLY | os.O_TRUNC, dir_fd=t)
        os.write(fd, b"through")
        print("R26 write 0")
    except OSError as e:
        print("R26 write", e.errno)
    class MA(ctypes.Structure):
        _fields_ = [("set", ctypes.c_uint64), ("clr", ctypes.c_uint64), ("prop", ctypes.c_uint64), ("userns", ctypes.c_uint64)]
    a = MA(0, 1, 0, 0)
    print("R26 mount_setattr", res(libc.syscall(L(NR_MOUNT_SETATTR), L(t), b"", L(0x1000), ctypes.byref(a), L(32))))
    print("R26 move_tree", res(libc.syscall(L(NR_MOVE_MOUNT), L(t), b"", L(AT_FDCWD), IN.encode(), L(4))))
`)
	t.Logf("the step saw:\n%s", res)
	w.unchanged(t, before, res)
	if b, err := os.ReadFile(filepath.Join(w.out, "f")); err != nil || string(b) != "x" {
		t.Errorf("THROUGH: out/f holds %q:\n%s", b, res)
	}
	vals := r22Vals(strings.ReplaceAll(res, "R26 ", "R22 "))
	for _, k := range []string{"mount", "move_mount", "write", "move_tree"} {
		if v, ok := vals[k]; ok && v == "0" {
			t.Errorf("THROUGH: %s worked:\n%s", k, res)
		}
	}
}

// btrfs's and FAT's ioctls that make a directory or change a mode with a
// descriptor open only for reading (the headers' _IOW numbers).
const (
	r26BtrfsSnapCreate     = 0x50009401 // BTRFS_IOC_SNAP_CREATE: _IOW(0x94, 1, struct btrfs_ioctl_vol_args)
	r26BtrfsSubvolCreate   = 0x5000940e // BTRFS_IOC_SUBVOL_CREATE: _IOW(0x94, 14, struct btrfs_ioctl_vol_args)
	r26BtrfsSnapCreateV2   = 0x50009417 // BTRFS_IOC_SNAP_CREATE_V2: _IOW(0x94, 23, struct btrfs_ioctl_vol_args_v2)
	r26BtrfsSubvolCreateV2 = 0x50009418 // BTRFS_IOC_SUBVOL_CREATE_V2
	r26BtrfsSetReceived    = 0xc0c89425 // BTRFS_IOC_SET_RECEIVED_SUBVOL: _IOWR(0x94, 37, struct btrfs_ioctl_received_subvol_args)
	r26FatSetAttributes    = 0x40047211 // FAT_IOCTL_SET_ATTRIBUTES: _IOW('r', 0x11, __u32)
	r26BtrfsSnapDestroy    = 0x5000940f // BTRFS_IOC_SNAP_DESTROY: _IOW(0x94, 15, struct btrfs_ioctl_vol_args)
)

// Attack (change 2, the inode ioctls; the filter itself): the requests
// that make a directory where Landlock forbids it (btrfs's subvolume and
// snapshot ioctls, above), change a subvolume's received UUID
// (SET_RECEIVED_SUBVOL: owner only, no write access needed), or change a
// FAT file's attributes, a chmod by another name (FAT_IOCTL_SET_ATTRIBUTES
// sets read-only, hidden, system through fat_setattr on a descriptor
// open for reading). THROUGH (severity as above for btrfs; low for FAT:
// a removable disk or the EFI partition mounted as the user's): the
// filter allowed each. Held: inodeIoctls refuses them (their numbers:
// TestInodeIoctlsAreTheHeadersNumbers).
func TestRedteam26_FilterAllowsIoctlsThatMakeOrChmod(t *testing.T) {
	for name, req := range map[string]uint32{
		"BTRFS_IOC_SNAP_CREATE":         r26BtrfsSnapCreate,
		"BTRFS_IOC_SUBVOL_CREATE":       r26BtrfsSubvolCreate,
		"BTRFS_IOC_SNAP_CREATE_V2":      r26BtrfsSnapCreateV2,
		"BTRFS_IOC_SUBVOL_CREATE_V2":    r26BtrfsSubvolCreateV2,
		"BTRFS_IOC_SET_RECEIVED_SUBVOL": r26BtrfsSetReceived,
		"BTRFS_IOC_SNAP_DESTROY":        r26BtrfsSnapDestroy,
		"BTRFS_IOC_SNAP_DESTROY_V2":     0x5000943f, // _IOW(0x94, 63, struct btrfs_ioctl_vol_args_v2)
		"FAT_IOCTL_SET_ATTRIBUTES":      r26FatSetAttributes,
	} {
		if got := r26Filter(t, unix.SYS_IOCTL, req); got != r26Eperm {
			t.Errorf("THROUGH: ioctl %s (%#x): %#x, want EPERM", name, req, got)
		}
	}
}
