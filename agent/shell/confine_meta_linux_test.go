package shell

// The law of confine_notify_linux.go: a Landlock step changes no file's
// mode, owner, times or extended attributes outside what it may write,
// and keeps changing them inside (chmod +x, cp -p, tar x, touch, git).

import (
	"archive/tar"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
	"github.com/eukhe/eukhe/internal/testkit"
)

// confineDirect runs python3 -c script in dir under `eukhe __confine`
// (the test binary) with a plan that reads everything and writes only
// the directories writes: the supervisor and its filter without the
// runner around them. It gives the output (stdout and stderr).
func confineDirect(t testing.TB, writes []string, dir, script string) string {
	t.Helper()
	py := realPython(t)
	plan := confine.LandlockPlan{Rules: []confine.LandlockRule{{Path: "/", Dir: true}, {Path: "/dev/null", Write: true}}}
	for _, w := range writes {
		plan.Rules = append(plan.Rules, confine.LandlockRule{Path: w, Dir: true, Write: true})
	}
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	cmd := exec.Command(os.Args[0], ConfineArg, py, "python3", "-c", script)
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{r}
	out, err := cmd.CombinedOutput()
	r.Close()
	if err != nil {
		t.Fatalf("the confined script failed (%v):\n%s", err, out)
	}
	return string(out)
}

// realPython is python3's program itself (not a version manager's shim
// script: it starts in a tenth of the time).
func realPython(t testing.TB) string {
	t.Helper()
	pythonOnce.Do(func() {
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if err == nil {
			pythonPath = strings.TrimSpace(string(out))
		}
	})
	if pythonPath == "" {
		t.Fatal("python3 does not say where it is")
	}
	return pythonPath
}

var (
	pythonOnce sync.Once
	pythonPath string
)

// metaWorld is a base directory with in/ (the step may write it) and
// out/ (it may not), each holding a file f and a directory d; in/lo links
// to out/f, in/li to in/f, in/ld to out, out/li to in/f. Every file and
// directory has the xattr user.pre.
type metaWorld struct {
	base, in, out string
}

func newMetaWorld(t testing.TB, base string) metaWorld {
	t.Helper()
	m := metaWorld{base: base, in: filepath.Join(base, "in"), out: filepath.Join(base, "out")}
	for _, d := range []string{m.in, m.out} {
		if err := os.MkdirAll(filepath.Join(d, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "d", "g"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{"../out/f", "in/lo"}, {"f", "in/li"}, {"../out", "in/ld"}, {"../in/f", "out/li"}} {
		if err := os.Symlink(l[0], filepath.Join(base, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"in", "in/f", "in/d", "in/d/g", "out", "out/f", "out/d", "out/d/g"} {
		if err := unix.Setxattr(filepath.Join(base, p), "user.pre", []byte("1"), 0); err != nil {
			testkit.Missing(t, "user xattrs on the temporary directory: "+err.Error())
		}
	}
	return m
}

// metaState is what a call of the family can change of a file.
type metaState struct {
	mode, uid, gid uint32
	atime, mtime   unix.Timespec
	ctime          unix.Timespec
	xattrs         string
}

func metaOf(t testing.TB, p string) metaState {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	s := metaState{mode: st.Mode, uid: st.Uid, gid: st.Gid, atime: st.Atim, mtime: st.Mtim, ctime: st.Ctim}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		s.atime = unix.Timespec{} // following a link reads it: its atime moves
	}
	buf := make([]byte, 4096)
	if n, err := unix.Llistxattr(p, buf); err == nil {
		names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
		slices.Sort(names)
		for _, name := range names {
			v := make([]byte, 256)
			k, _ := unix.Lgetxattr(p, name, v)
			s.xattrs += fmt.Sprintf("%s=%q;", name, v[:max(k, 0)])
		}
	}
	return s
}

// outsideState is every outside object's state (links themselves).
func (m metaWorld) outsideState(t testing.TB) map[string]metaState {
	out := map[string]metaState{}
	for _, p := range []string{"", "out", "out/f", "out/d", "out/d/g", "out/li"} {
		out[p] = metaOf(t, filepath.Join(m.base, p))
	}
	return out
}

// metaPrelude is the python that defines the calls of the family through
// the C library (and the newest by their numbers), each giving 0 or the
// errno.
func metaPrelude() string {
	return fmt.Sprintf(`
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, NOFOLLOW, EMPTY = -100, 0x100, 0x1000
NR_FCHMODAT2, NR_SETXATTRAT, NR_REMOVEXATTRAT = %d, %d, %d
class TS(ctypes.Structure):
    _fields_ = [("s", ctypes.c_long), ("n", ctypes.c_long)]
TS2 = TS * 2
class XA(ctypes.Structure):
    _fields_ = [("value", ctypes.c_uint64), ("size", ctypes.c_uint32), ("flags", ctypes.c_uint32)]
libc.syscall.restype = ctypes.c_long
def res(r):
    return 0 if r == 0 else ctypes.get_errno()
def times(year):
    t = (year - 1970) * 365 * 86400
    return TS2(TS(t, 0), TS(t, 0))
VAL = b"v"
def xa():
    global _xv
    _xv = ctypes.create_string_buffer(VAL)
    return XA(ctypes.addressof(_xv), len(VAL), 0)
def call(name, p, mode, year):
    b = p.encode()
    gid = os.getgid()
    if name == "chmod": return res(libc.chmod(b, mode))
    if name == "lchmod2": return res(libc.syscall(NR_FCHMODAT2, AT_FDCWD, b, mode, NOFOLLOW))
    if name == "fchmod":
        fd = os.open(p, os.O_RDONLY)
        try: return res(libc.fchmod(fd, mode))
        finally: os.close(fd)
    if name == "fchmodat_dirfd":
        a = os.path.join(os.getcwd(), p) if not p.startswith("/") else p
        fd = os.open(os.path.dirname(a), os.O_RDONLY | os.O_DIRECTORY)
        try: return res(libc.fchmodat(fd, os.path.basename(a).encode(), mode, 0))
        finally: os.close(fd)
    if name == "chown": return res(libc.chown(b, -1, gid))
    if name == "lchown": return res(libc.lchown(b, -1, gid))
    if name == "fchown":
        fd = os.open(p, os.O_RDONLY)
        try: return res(libc.fchown(fd, -1, gid))
        finally: os.close(fd)
    if name == "fchownat_empty":
        fd = os.open(p, os.O_PATH | os.O_NOFOLLOW)
        try: return res(libc.fchownat(fd, b"", -1, gid, EMPTY))
        finally: os.close(fd)
    if name == "utimensat": return res(libc.utimensat(AT_FDCWD, b, times(year), 0))
    if name == "lutimensat": return res(libc.utimensat(AT_FDCWD, b, times(year), NOFOLLOW))
    if name == "futimens":
        fd = os.open(p, os.O_RDONLY)
        try: return res(libc.futimens(fd, times(year)))
        finally: os.close(fd)
    if name == "setxattr": return res(libc.setxattr(b, b"user.law", VAL, len(VAL), 0))
    if name == "lsetxattr": return res(libc.lsetxattr(b, b"user.law", VAL, len(VAL), 0))
    if name == "fsetxattr":
        fd = os.open(p, os.O_RDONLY)
        try: return res(libc.fsetxattr(fd, b"user.law", VAL, len(VAL), 0))
        finally: os.close(fd)
    if name == "removexattr": return res(libc.removexattr(b, b"user.pre"))
    if name == "lremovexattr": return res(libc.lremovexattr(b, b"user.pre"))
    if name == "setxattrat":
        a = xa()
        return res(libc.syscall(NR_SETXATTRAT, AT_FDCWD, b, 0, b"user.law", ctypes.byref(a), ctypes.sizeof(a)))
    if name == "removexattrat": return res(libc.syscall(NR_REMOVEXATTRAT, AT_FDCWD, b, 0, b"user.pre"))
    raise Exception(name)
`, unix.SYS_FCHMODAT2, unix.SYS_SETXATTRAT, unix.SYS_REMOVEXATTRAT)
}

// metaCalls are the prelude's calls: whether each follows a link at the
// path's end, and what it does.
var metaCalls = []struct {
	name   string
	follow bool
	op     metaOp
}{
	{"chmod", true, opChmod}, {"lchmod2", false, opChmod}, {"fchmod", true, opChmod}, {"fchmodat_dirfd", true, opChmod},
	{"chown", true, opChown}, {"lchown", false, opChown}, {"fchown", true, opChown}, {"fchownat_empty", false, opChown},
	{"utimensat", true, opTimes}, {"lutimensat", false, opTimes}, {"futimens", true, opTimes},
	{"setxattr", true, opSetxattr}, {"lsetxattr", false, opSetxattr}, {"fsetxattr", true, opSetxattr}, {"setxattrat", true, opSetxattr},
	{"removexattr", true, opRemovexattr}, {"lremovexattr", false, opRemovexattr}, {"removexattrat", true, opRemovexattr},
}

// metaTarget is a path as the step names it (from in/), and the object
// it names when the last link is followed and when it is not (relative
// to the base).
type metaTarget struct{ path, follow, nofollow string }

func (m metaWorld) targets() []metaTarget {
	return []metaTarget{
		{"f", "in/f", "in/f"}, {"d", "in/d", "in/d"}, {"d/g", "in/d/g", "in/d/g"},
		{"lo", "out/f", "in/lo"}, {"li", "in/f", "in/li"}, {"ld/f", "out/f", "out/f"}, {"ld/d", "out/d", "out/d"},
		{filepath.Join(m.out, "f"), "out/f", "out/f"}, {filepath.Join(m.out, "d"), "out/d", "out/d"},
		{"../out/d/g", "out/d/g", "out/d/g"}, {filepath.Join(m.out, "li"), "in/f", "out/li"},
		{filepath.Join(m.in, "d"), "in/d", "in/d"}, {"/proc/self/cwd/f", "in/f", "in/f"},
		{"/proc/self/cwd/../out/f", "out/f", "out/f"}, {"/proc/thread-self/cwd/lo", "out/f", "in/lo"},
		{".", "in", "in"}, {"..", "", ""},
	}
}

// wantErrno is what the call gives on the object obj (relative to the
// base; "" for the base, outside): 0 inside, EPERM outside; a link's
// mode cannot change (EOPNOTSUPP), nor can it hold a user xattr (EPERM).
func wantErrno(op metaOp, obj string) unix.Errno {
	if obj != "in" && !strings.HasPrefix(obj, "in/") {
		return unix.EPERM
	}
	if strings.HasPrefix(obj, "in/l") {
		switch op {
		case opChmod:
			return unix.EOPNOTSUPP
		case opSetxattr, opRemovexattr:
			return unix.EPERM
		}
	}
	return 0
}

// TestLaw_a_landlock_step_changes_no_metadata_outside_what_it_may_write:
// drawn calls of the family on drawn paths (inside, outside, through
// links either way, through the caller's /proc entry, relative to a
// dirfd, on a descriptor) in one confined process: each gives 0 when the
// object it names is inside what the step may write (and does its
// work), EPERM when it is outside, and no outside object's mode, owner,
// times or xattrs change.
func TestLaw_a_landlock_step_changes_no_metadata_outside_what_it_may_write(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		base := filepath.Join(top, fmt.Sprint(n))
		if err := os.Mkdir(base, 0o755); err != nil {
			rt.Fatal(err)
		}
		m := newMetaWorld(t, base)
		type op struct {
			call   int
			target metaTarget
			mode   int
			year   int
		}
		ops := rapid.SliceOfN(rapid.Custom(func(rt *rapid.T) op {
			return op{
				call:   rapid.IntRange(0, len(metaCalls)-1).Draw(rt, "call"),
				target: rapid.SampledFrom(m.targets()).Draw(rt, "target"),
				mode:   rapid.SampledFrom([]int{0o777, 0o700, 0o750, 0o4755, 0o1777}).Draw(rt, "mode"),
				year:   rapid.IntRange(1990, 2020).Draw(rt, "year"),
			}
		}), 1, 6).Draw(rt, "ops")
		before := m.outsideState(t)
		var script strings.Builder
		script.WriteString(metaPrelude())
		for _, o := range ops {
			fmt.Fprintf(&script, "print(call(%q, %q, 0o%o, %d))\n", metaCalls[o.call].name, o.target.path, o.mode, o.year)
		}
		out := confineDirect(t, []string{m.in}, m.in, script.String())
		lines := strings.Fields(out)
		if len(lines) != len(ops) {
			rt.Fatalf("%d results for %d calls:\n%s", len(lines), len(ops), out)
		}
		removed := map[string]bool{} // user.pre removed from an inside object
		for i, o := range ops {
			c := metaCalls[o.call]
			obj := o.target.follow
			if !c.follow {
				obj = o.target.nofollow
			}
			want := wantErrno(c.op, obj)
			if want == 0 && c.op == opRemovexattr {
				if removed[obj] {
					want = unix.ENODATA
				}
				removed[obj] = true
			}
			if lines[i] != fmt.Sprint(int(want)) {
				rt.Errorf("%s(%q) on %q: errno %s, want %d (%v)", c.name, o.target.path, obj, lines[i], int(want), want)
			}
		}
		after := m.outsideState(t)
		for p, s := range before {
			if after[p] != s {
				rt.Errorf("%s changed by a step that may not write it:\n before %+v\n after  %+v\n%s", p, s, after[p], out)
			}
		}
	})
}

// TestLandlockStepChangesMetadataInsideItsWrites: what a build does to
// the files of the workspace works under Landlock as unconfined: chmod
// +x, touch -d, cp -p, tar x of modes and times, chown to one's own
// ids, user xattrs, and git in a repository the step may change.
func TestLandlockStepChangesMetadataInsideItsWrites(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	needTool(t, "tar")
	needTool(t, "git")
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Protected)), gate.Of(gate.Read, gate.Write, gate.Protected))
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	when := time.Date(2002, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, h := range []tar.Header{{Name: "x/", Typeflag: tar.TypeDir, Mode: 0o750, ModTime: when},
		{Name: "x/run.sh", Typeflag: tar.TypeReg, Mode: 0o750, ModTime: when, Size: 2}} {
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("x\n"))
		}
	}
	tw.Close()
	if err := os.WriteFile(cw.path("src/x.tar"), tb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res := cw.run(`cd src && printf '#!/bin/sh\necho built\n' > build.sh && chmod +x build.sh && ./build.sh && touch -d 2001-01-01 build.sh && cp -p build.sh b2 && chown "$(id -u):$(id -g)" b2 && tar xpf x.tar && python3 -c 'import os; os.setxattr("b2", "user.k", b"v"); os.removexattr("b2", "user.k"); os.setxattr("b2", "user.k2", b"w")'`)
	if res.Status != 0 || !strings.Contains(res.Text, "built") {
		t.Fatalf("the build's metadata calls failed:\n%s", res.Text)
	}
	for _, c := range []struct {
		name string
		mode os.FileMode
		year int
	}{{"src/build.sh", 0o755, 2001}, {"src/b2", 0o755, 2001}, {"src/x/run.sh", 0o750, 2002}, {"src/x", 0o750 | os.ModeDir, 2002}} {
		fi, err := os.Stat(cw.path(c.name))
		if err != nil || fi.Mode() != c.mode || fi.ModTime().Year() != c.year {
			t.Errorf("%s: %v %v, want mode %v of %d:\n%s", c.name, fi.Mode(), fi.ModTime(), c.mode, c.year, res.Text)
		}
	}
	v := make([]byte, 8)
	if n, err := unix.Getxattr(cw.path("src/b2"), "user.k2", v); err != nil || string(v[:max(n, 0)]) != "w" {
		t.Errorf("src/b2's user.k2: %q %v:\n%s", v, err, res.Text)
	}
	res = cw.run(`git init -q && echo a > src/a && git add src/a && git -c user.name=a -c user.email=a@b commit -qm x && chmod +x .git/hooks/pre-commit.sample && echo gitok`)
	if !strings.Contains(res.Text, "gitok") {
		t.Errorf("git under Landlock with protected allowed:\n%s", res.Text)
	}
}

// TestLandlockStepChangesNoMetadataThroughALinkOrADescriptor: a link in
// the root to a file outside, a relative name from a dirfd outside, a
// read-only descriptor of a file outside: each call is refused (EPERM)
// and the file keeps its mode, times and xattrs; the same calls on the
// inside file work.
func TestLandlockStepChangesNoMetadataThroughALinkOrADescriptor(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newMetaWorld(t, base)
	before := m.outsideState(t)
	script := metaPrelude() + fmt.Sprintf(`
fd = os.open(%[1]q, os.O_RDONLY)
print("fchmod-out", res(libc.fchmod(fd, 0o666)), "futimens-out", res(libc.futimens(fd, times(2001))), "fsetxattr-out", res(libc.fsetxattr(fd, b"user.x", b"v", 1, 0)), "fchown-out", res(libc.fchown(fd, -1, os.getgid())))
d = os.open(%[2]q, os.O_RDONLY | os.O_DIRECTORY)
print("dirfd-out", res(libc.fchmodat(d, b"f", 0o666, 0)), "dirfd-utimensat-out", res(libc.utimensat(d, b"f", times(2001), 0)))
print("link-out", res(libc.chmod(b"lo", 0o666)), "link-utimes-out", res(libc.utimes(b"lo", None)))
i = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
print("dirfd-in", res(libc.fchmodat(i, b"f", 0o640, 0)))
fi = os.open("d/g", os.O_RDONLY)
print("fchmod-in", res(libc.fchmod(fi, 0o604)))
print("futimesat-in", res(libc.futimesat(i, b"d", None)))
`, filepath.Join(m.out, "f"), m.out)
	out := confineDirect(t, []string{m.in}, m.in, script)
	for _, w := range []string{"fchmod-out 1", "futimens-out 1", "fsetxattr-out 1", "fchown-out 1", "dirfd-out 1",
		"dirfd-utimensat-out 1", "link-out 1", "link-utimes-out 1", "dirfd-in 0", "fchmod-in 0", "futimesat-in 0"} {
		if !strings.Contains(out, w+" ") && !strings.HasSuffix(strings.TrimSpace(out), w) && !strings.Contains(out, w+"\n") {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
	after := m.outsideState(t)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed:\n before %+v\n after  %+v\n%s", p, s, after[p], out)
		}
	}
	if fi, _ := os.Stat(filepath.Join(m.in, "f")); fi == nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("in/f: %v, want 0640:\n%s", fi, out)
	}
	if fi, _ := os.Stat(filepath.Join(m.in, "d/g")); fi == nil || fi.Mode().Perm() != 0o604 {
		t.Errorf("in/d/g: %v, want 0604:\n%s", fi, out)
	}
}

// TestLandlockStepCannotRaceThePathToAFileOutside: one thread calls
// chmod and utimes on a path buffer while another flips it between a
// file inside and one outside, thousands of times: the supervisor reads
// the path once and performs the call on what it judged, so the outside
// file never changes (the inside one does).
func TestLandlockStepCannotRaceThePathToAFileOutside(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newMetaWorld(t, base)
	before := m.outsideState(t)
	in, out := m.in+"//f", filepath.Join(m.out, "f")
	// The same length, so that a half-written flip is one or the other
	// or a path to nowhere.
	if len(in) != len(out) {
		t.Fatalf("%q and %q differ in length", in, out)
	}
	script := metaPrelude() + fmt.Sprintf(`
import threading, time
IN, OUT = %q.encode(), %q.encode()
buf = ctypes.create_string_buffer(IN, 4096)
stop = False
def flip():
    while not stop:
        ctypes.memmove(buf, OUT, len(OUT))
        ctypes.memmove(buf, IN, len(IN))
th = threading.Thread(target=flip)
th.start()
ok = 0
end = time.time() + 2
while time.time() < end:
    for _ in range(200):
        if libc.chmod(buf, 0o666) == 0: ok += 1
        libc.utimes(buf, None)
        libc.setxattr(buf, b"user.race", b"v", 1, 0)
stop = True
th.join()
print("changed", ok)
`, in, out)
	res := confineDirect(t, []string{m.in}, m.in, script)
	if !strings.Contains(res, "changed ") || strings.Contains(res, "changed 0\n") {
		t.Errorf("no chmod of the inside file worked:\n%s", res)
	}
	after := m.outsideState(t)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed by the race:\n before %+v\n after  %+v\n%s", p, s, after[p], res)
		}
	}
}

// The filter with the metadata calls: each of them (and no other call)
// goes to the listener; a call newer than the filter knows fails with
// ENOSYS and file_setattr with EPERM; everything else is as socketFilter
// decides, which is unchanged without them (bubblewrap's --seccomp).
func TestLaw_the_landlock_filter_notifies_exactly_the_metadata_calls(t *testing.T) {
	arch, ok := nativeArch()
	if !ok {
		t.Skip("no filter here")
	}
	notif := uint32(unix.SECCOMP_RET_USER_NOTIF)
	meta := metaNumbers()
	rapid.Check(t, func(rt *rapid.T) {
		unixOK, netOK := rapid.Bool().Draw(rt, "unixOK"), rapid.Bool().Draw(rt, "netOK")
		plain, err := socketFilter(unixOK, netOK)
		if err != nil {
			rt.Fatal(err)
		}
		same, _ := confineFilter(unixOK, netOK, nil, notif)
		if !slices.Equal(plain, same) {
			rt.Fatalf("the filter without metadata calls differs from socketFilter's")
		}
		raw, err := confineFilter(unixOK, netOK, meta, notif)
		if err != nil {
			rt.Fatal(err)
		}
		run := func(raw []bpf.RawInstruction, nr, a, domain uint32) uint32 {
			insns, _ := bpf.Disassemble(raw)
			vm, err := bpf.NewVM(insns)
			if err != nil {
				rt.Fatal(err)
			}
			data := make([]byte, 64)
			binary.BigEndian.PutUint32(data[dataNr:], nr)
			binary.BigEndian.PutUint32(data[dataArch:], a)
			binary.BigEndian.PutUint32(data[dataArg0:], domain)
			got, err := vm.Run(data)
			if err != nil {
				rt.Fatal(err)
			}
			return uint32(got)
		}
		nr := rapid.OneOf(rapid.SampledFrom(meta), rapid.Uint32Range(0, 600)).Draw(rt, "nr")
		a := rapid.SampledFrom([]uint32{arch, arch ^ 1}).Draw(rt, "arch")
		domain := rapid.SampledFrom([]uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_NETLINK}).Draw(rt, "domain")
		got, base := run(raw, nr, a, domain), run(plain, nr, a, domain)
		switch {
		case a == arch && slices.Contains(meta, nr):
			if got != notif {
				rt.Fatalf("call %d: %#x, want the listener", nr, got)
			}
		case a == arch && nr > lastKnownSyscall:
			// newer than the filter: refused as a kernel without it would
			if got != unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS) {
				rt.Fatalf("call %d, newer than the filter knows: %#x, want ENOSYS", nr, got)
			}
		case a == arch && nr == unix.SYS_FILE_SETATTR:
			if got != unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM) {
				rt.Fatalf("file_setattr: %#x, want EPERM", got)
			}
		case got != base:
			rt.Fatalf("call %d arch %#x: %#x, socketFilter gives %#x", nr, a, got, base)
		}
	})
}

// TestLandlockStepInsideALandlockStepRefusesEveryMetadataCall: eukhe run
// inside a Landlock step (its step's filter already has the listener, so
// the kernel gives the nested one none: EBUSY) still runs its step, whose
// metadata calls all fail with EPERM, even inside what it may write:
// closed, never let through.
func TestLandlockStepInsideALandlockStepRefusesEveryMetadataCall(t *testing.T) {
	useMechanism(t, Landlock)
	needTool(t, "python3")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newMetaWorld(t, base)
	plan, err := json.Marshal(confine.LandlockPlan{Rules: []confine.LandlockRule{{Path: "/", Dir: true},
		{Path: "/dev/null", Write: true}, {Path: m.in, Dir: true, Write: true}}})
	if err != nil {
		t.Fatal(err)
	}
	py := realPython(t)
	script := fmt.Sprintf(`
import os, subprocess
print("outer", os.chmod("f", 0o640) or 0)
r, w = os.pipe()
os.write(w, %q.encode())
os.close(w)
os.dup2(r, 3, inheritable=True)
p = subprocess.run([%q, %q, %q, "python3", "-c", "import os\ntry:\n os.chmod('d/g', 0o640); print('inner 0')\nexcept OSError as e: print('inner', e.errno)"], pass_fds=(3,), capture_output=True, text=True)
print(p.stdout, p.stderr, "status", p.returncode)
`, plan, os.Args[0], ConfineArg, py)
	out := confineDirect(t, []string{m.in}, m.in, script)
	if !strings.Contains(out, "outer 0") || !strings.Contains(out, "inner 1") || !strings.Contains(out, "status 0") {
		t.Errorf("want the outer chmod done, the nested one refused (EPERM), the nested step run:\n%s", out)
	}
	if fi, _ := os.Stat(filepath.Join(m.in, "d/g")); fi == nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("in/d/g: %v, want 0600 (the nested step's chmod refused):\n%s", fi, out)
	}
}
