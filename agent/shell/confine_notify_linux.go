package shell

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Law: a Landlock step changes no file's mode, owner, times or extended
// attributes outside what it may write. Landlock decides what a path may
// be opened for; no access right of it covers chmod, chown, utimes or
// setxattr, so a step allowed read and write (run unasked) could chmod
// 0666 the user's ssh key or 0000 the home, which bubblewrap's read-only
// binds refuse. So the Landlock step's seccomp filter sends those calls
// (metaSyscalls: chmod, fchmod, fchmodat, fchmodat2, chown, fchown,
// lchown, fchownat, setxattr, lsetxattr, fsetxattr, setxattrat,
// removexattr, lremovexattr, fremovexattr, removexattrat, utime, utimes,
// futimesat, utimensat — those of them the architecture has) to the
// supervisor (SECCOMP_RET_USER_NOTIF), which, for each:
//
//   - reads the call's arguments from the caller's memory once (the path,
//     the xattr name and value, the times), and resolves the path as the
//     caller would: from its working directory (/proc/TID/cwd) or its
//     dirfd (/proc/TID/fd/N), following the last link or not as the call
//     says (lchown, l*xattr, AT_SYMLINK_NOFOLLOW), AT_EMPTY_PATH and the
//     f* forms taking the caller's descriptor itself — into a descriptor
//     (O_PATH) of the object;
//   - judges the object by its real path (the descriptor's /proc link):
//     the call is performed only if that path is inside what the plan
//     lets the step write — the same set Landlock grants write to: the
//     subtrees of the plan's write rules, held as the very objects
//     Landlock took (the inner run opens each rule once, with no link on
//     the way: openRuleObjects), wherever they are now
//     (the plan already leaves out what it protects or hides) — and
//     opening that path again with no link on the way finds the same
//     object; a device is never changed; an object with no name at all
//     (a pipe, a socket) may be; an unlinked file (or an O_TMPFILE one,
//     which may be linked in later) is judged by the folder it was in;
//   - performs the call itself on that descriptor (never
//     SECCOMP_USER_NOTIF_FLAG_CONTINUE: the caller could change its
//     memory or its links between the check and the kernel's reading),
//     on a thread with no capability (the step has none), and answers
//     with the call's result; a refused call fails with EPERM, "Operation
//     not permitted", which the runner's sandbox note explains.
//
// A call whose caller is gone (SECCOMP_IOCTL_NOTIF_ID_VALID fails after
// its memory and /proc entries were read) is not performed. Where the
// kernel gives no listener, the filter fails those calls with EPERM
// instead (loadLandlockFilter). Not covered: a path through another
// process's /proc entries is resolved as this supervisor sees it
// (/proc/self, /proc/thread-self and /dev/fd are the caller's; anything
// else is judged by the object it reaches, so nothing outside the write
// set changes either way); a caller whose root is not the supervisor's
// (chroot in a user namespace) gets EPERM. The ioctls that change inode
// flags and attributes (chattr) are refused by the filter itself.

// listenFD is the descriptor on which the inner run hands the listener
// to the supervisor (a socket, SCM_RIGHTS), after the plan's (planFD).
const listenFD = planFD + 1

// metaCall names a call of metaSyscalls (their numbers are per
// architecture: confine_metanr_linux_*.go).
type metaCall int

const (
	callChmod metaCall = iota + 1
	callFchmod
	callFchmodat
	callFchmodat2
	callChown
	callLchown
	callFchown
	callFchownat
	callSetxattr
	callLsetxattr
	callFsetxattr
	callSetxattrat
	callRemovexattr
	callLremovexattr
	callFremovexattr
	callRemovexattrat
	callUtime
	callUtimes
	callFutimesat
	callUtimensat
)

// metaNumbers are metaSyscalls' numbers, sorted: the filter's tests.
func metaNumbers() []uint32 {
	var nrs []uint32
	for nr := range metaSyscalls {
		nrs = append(nrs, nr)
	}
	slices.Sort(nrs)
	return nrs
}

// seccompNotif is the kernel's struct seccomp_notif.
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

// seccompNotifResp is the kernel's struct seccomp_notif_resp.
type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// metaOp is what a call does to the object it names.
type metaOp int

const (
	opChmod metaOp = iota + 1
	opChown
	opTimes
	opSetxattr
	opRemovexattr
)

// metaReq is a call decoded from the caller's registers and memory.
type metaReq struct {
	op      metaOp
	dirfd   int32 // AT_FDCWD, or the caller's descriptor
	hasPath bool  // false: the object is dirfd itself (fchmod, fchown, f*xattr, futimens)
	path    string
	follow  bool // follow a link at the path's end
	emptyOK bool // AT_EMPTY_PATH: an empty path is dirfd itself
	mode    uint32
	uid     int
	gid     int
	times   *[2]unix.Timespec // nil: now
	name    string
	value   []byte
	xflags  int
}

// Limits of the kernel's: PATH_MAX, XATTR_NAME_MAX, XATTR_SIZE_MAX.
const (
	pathMax      = 4096
	xattrNameMax = 255
	xattrSizeMax = 65536
)

// metaServer judges and performs the step's metadata calls.
type metaServer struct {
	listener  int
	rules     []int       // the plan's write rules, the objects Landlock took (O_PATH)
	refuseAll bool        // this thread kept a capability: refuse every call
	root      unix.Stat_t // this process's root directory
}

// writeRule is a path the plan lets the step write: a directory's whole
// subtree, or a file.
type writeRule struct {
	path string
	dir  bool
}

// serveMetadata takes the listener the inner run sends on sock, with the
// objects of the plan's write rules Landlock took (none if it failed or
// loaded no listener), and answers the step's
// metadata calls until no process of the step is left. It runs on a
// thread of its own with no capability: a call it performs is checked by
// the kernel as the step's (which has none) would be.
//
// The rules are held as the objects, not as paths read again later: a
// rule's path swapped for a link after the step began (by another step
// allowed more) must not move what this step may change, as it does not
// move what Landlock lets it write (the twenty-second red team's row);
// nor may a swap before Landlock took them, or between Landlock and this
// supervisor (the twenty-fifth's): both take one open of each rule.
func serveMetadata(sock *os.File) {
	runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
	fds := receiveFDs(sock)
	sock.Close()
	if len(fds) == 0 {
		return
	}
	listener, rules := fds[0], fds[1:]
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	s := &metaServer{listener: listener, rules: rules}
	if err := dropCapabilities(); err != nil {
		s.refuseAll = true // rather than perform one with privileges
	}
	// Wake the caller on this CPU when answered (Linux 6.6; older ones
	// refuse the flag, and answer as fast as they can anyway).
	_, _, _ = unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_SET_FLAGS, unix.SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)
	if err := unix.Stat("/", &s.root); err != nil {
		s.refuseAll = true
	}
	s.serve()
}

// fdsPerMessage is how many descriptors one message carries (the
// kernel's SCM_MAX_FD is 253), and maxRuleFDs bounds the write rules sent
// in all: a rule past it is not sent, and the supervisor then refuses
// what only it would allow (never more than the plan allows).
const (
	fdsPerMessage = 250
	maxRuleFDs    = 4000
)

// sendRules sends the listener and the write rules' objects on sock, in
// messages of fdsPerMessage descriptors, the last one's byte 1.
func sendRules(sock, listener int, rules []int) error {
	if len(rules) > maxRuleFDs {
		rules = rules[:maxRuleFDs]
	}
	fds := append([]int{listener}, rules...)
	for len(fds) > 0 {
		n := min(len(fds), fdsPerMessage)
		last := byte(0)
		if n == len(fds) {
			last = 1
		}
		if err := unix.Sendmsg(sock, []byte{last}, unix.UnixRights(fds[:n]...), nil, 0); err != nil {
			return err
		}
		fds = fds[n:]
	}
	return nil
}

// receiveFDs reads the descriptors sendRules sent on sock, the listener
// first; none if none came, or if the messages broke off (any received is
// closed).
func receiveFDs(sock *os.File) []int {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4*fdsPerMessage))
	var all []int
	for {
		n, oobn, _, _, err := unix.Recvmsg(int(sock.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		var fds []int
		if err == nil && oobn > 0 {
			if msgs, perr := unix.ParseSocketControlMessage(oob[:oobn]); perr == nil && len(msgs) > 0 {
				fds, err = unix.ParseUnixRights(&msgs[0])
			}
		}
		all = append(all, fds...)
		switch {
		case err == nil && n == 1 && len(fds) > 0 && buf[0] == 1 && len(all) <= 1+maxRuleFDs:
			return all
		case err == nil && n == 1 && len(fds) > 0 && buf[0] == 0 && len(all) < 1+maxRuleFDs:
			continue
		}
		for _, fd := range all {
			unix.Close(fd)
		}
		return nil
	}
}

// serve is the loop: wait for a call (poll, which tells when no process
// of the step is left: POLLHUP), take it, answer it.
func (s *metaServer) serve() {
	pfd := []unix.PollFd{{Fd: int32(s.listener), Events: unix.POLLIN}}
	for {
		pfd[0].Revents = 0
		if _, err := unix.Poll(pfd, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if pfd[0].Revents&unix.POLLIN == 0 {
			if pfd[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
				return
			}
			continue
		}
		var n seccompNotif
		if err := ioctlPtr(s.listener, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&n)); err != nil {
			if err == unix.EINTR || err == unix.ENOENT {
				continue
			}
			return
		}
		errno := s.answer(&n)
		resp := seccompNotifResp{ID: n.ID, Error: -int32(errno)}
		_ = ioctlPtr(s.listener, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
	}
}

func ioctlPtr(fd int, req uint, arg unsafe.Pointer) error {
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg))
	if e != 0 {
		return e
	}
	return nil
}

// answer decodes, judges and performs one call: 0 or the errno the
// caller gets.
func (s *metaServer) answer(n *seccompNotif) unix.Errno {
	call, ok := metaSyscalls[uint32(n.Nr)]
	if arch, archOK := nativeArch(); !ok || !archOK || n.Arch != arch {
		return unix.EPERM
	}
	tid := int(n.Pid)
	req, errno := decodeMeta(tid, call, n.Args)
	if errno != 0 {
		return errno
	}
	if !s.sameRoot(tid) {
		return unix.EPERM
	}
	fd, errno := resolveAs(tid, req)
	if errno != 0 {
		return errno
	}
	defer unix.Close(fd)
	// What was read of the caller (its memory, its /proc entries) was the
	// caller's, not a process that took its number since.
	id := n.ID
	if ioctlPtr(s.listener, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id)) != nil {
		return unix.ENOENT
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return unix.EPERM
	}
	if !s.mayChange(fd, &st) {
		return unix.EPERM
	}
	return perform(fd, &st, req)
}

// sameRoot tells whether the caller's root directory is this process's:
// an absolute path is resolved from this one's.
func (s *metaServer) sameRoot(tid int) bool {
	var a unix.Stat_t
	if unix.Stat("/proc/"+strconv.Itoa(tid)+"/root", &a) != nil {
		return false
	}
	return a.Dev == s.root.Dev && a.Ino == s.root.Ino
}

// decodeMeta reads call's arguments: registers, then the caller's memory.
func decodeMeta(tid int, call metaCall, a [6]uint64) (*metaReq, unix.Errno) {
	r := &metaReq{dirfd: unix.AT_FDCWD, hasPath: true, follow: true}
	var errno unix.Errno
	path := func(i int) {
		if errno == 0 {
			r.path, errno = readPath(tid, a[i])
		}
	}
	atFlags := func(i int) {
		f := int(int32(a[i]))
		if f&^(unix.AT_SYMLINK_NOFOLLOW|unix.AT_EMPTY_PATH) != 0 {
			errno = unix.EINVAL
		}
		r.follow = f&unix.AT_SYMLINK_NOFOLLOW == 0
		r.emptyOK = f&unix.AT_EMPTY_PATH != 0
	}
	fdArg := func(i int) { r.dirfd, r.hasPath = int32(a[i]), false }
	dirArg := func(i int) { r.dirfd = int32(a[i]) }
	switch call {
	case callChmod:
		r.op, r.mode = opChmod, uint32(uint16(a[1]))
		path(0)
	case callFchmod:
		r.op, r.mode = opChmod, uint32(uint16(a[1]))
		fdArg(0)
	case callFchmodat:
		r.op, r.mode = opChmod, uint32(uint16(a[2]))
		dirArg(0)
		path(1)
	case callFchmodat2:
		r.op, r.mode = opChmod, uint32(uint16(a[2]))
		dirArg(0)
		atFlags(3)
		path(1)
	case callChown, callLchown:
		r.op, r.uid, r.gid = opChown, int(int32(a[1])), int(int32(a[2]))
		r.follow = call == callChown
		path(0)
	case callFchown:
		r.op, r.uid, r.gid = opChown, int(int32(a[1])), int(int32(a[2]))
		fdArg(0)
	case callFchownat:
		r.op, r.uid, r.gid = opChown, int(int32(a[2])), int(int32(a[3]))
		dirArg(0)
		atFlags(4)
		path(1)
	case callSetxattr, callLsetxattr, callFsetxattr:
		r.op, r.xflags = opSetxattr, int(int32(a[4]))
		r.follow = call != callLsetxattr
		if call == callFsetxattr {
			fdArg(0)
		} else {
			path(0)
		}
		if errno == 0 {
			r.name, errno = readXattrName(tid, a[1])
		}
		if errno == 0 {
			r.value, errno = readValue(tid, a[2], a[3])
		}
	case callSetxattrat:
		r.op = opSetxattr
		dirArg(0)
		atFlags(2)
		path(1)
		if errno == 0 {
			r.name, errno = readXattrName(tid, a[3])
		}
		if errno == 0 {
			// struct xattr_args { u64 value; u32 size; u32 flags; }
			if a[5] < 16 {
				return nil, unix.EINVAL
			}
			var b []byte
			if b, errno = readMem(tid, a[4], 16); errno == 0 {
				r.xflags = int(int32(binary.NativeEndian.Uint32(b[12:])))
				r.value, errno = readValue(tid, binary.NativeEndian.Uint64(b[0:]), uint64(binary.NativeEndian.Uint32(b[8:])))
			}
		}
	case callRemovexattr, callLremovexattr, callFremovexattr:
		r.op = opRemovexattr
		r.follow = call != callLremovexattr
		if call == callFremovexattr {
			fdArg(0)
		} else {
			path(0)
		}
		if errno == 0 {
			r.name, errno = readXattrName(tid, a[1])
		}
	case callRemovexattrat:
		r.op = opRemovexattr
		dirArg(0)
		atFlags(2)
		path(1)
		if errno == 0 {
			r.name, errno = readXattrName(tid, a[3])
		}
	case callUtime:
		r.op = opTimes
		path(0)
		if errno == 0 && a[1] != 0 {
			// struct utimbuf { time_t actime, modtime; }
			var b []byte
			if b, errno = readMem(tid, a[1], 16); errno == 0 {
				r.times = &[2]unix.Timespec{
					{Sec: int64(binary.NativeEndian.Uint64(b[0:]))},
					{Sec: int64(binary.NativeEndian.Uint64(b[8:]))}}
			}
		}
	case callUtimes, callFutimesat:
		r.op = opTimes
		tv := a[1]
		if call == callFutimesat {
			dirArg(0)
			tv = a[2]
			if a[1] == 0 {
				r.hasPath = false // futimesat(fd, NULL, …) is the descriptor's
			} else {
				path(1)
			}
		} else {
			path(0)
		}
		if errno == 0 && tv != 0 {
			// struct timeval [2]
			var b []byte
			if b, errno = readMem(tid, tv, 32); errno == 0 {
				var ts [2]unix.Timespec
				for i := range ts {
					sec, usec := int64(binary.NativeEndian.Uint64(b[16*i:])), int64(binary.NativeEndian.Uint64(b[16*i+8:]))
					if usec < 0 || usec >= 1e6 {
						return nil, unix.EINVAL
					}
					ts[i] = unix.Timespec{Sec: sec, Nsec: usec * 1000}
				}
				r.times = &ts
			}
		}
	case callUtimensat:
		r.op = opTimes
		dirArg(0)
		flags := int(int32(a[3]))
		if a[1] == 0 {
			// utimensat(fd, NULL, …): futimens, no flag allowed
			if r.dirfd == unix.AT_FDCWD {
				return nil, unix.EFAULT
			}
			if flags != 0 {
				return nil, unix.EINVAL
			}
			r.hasPath = false
		} else {
			atFlags(3)
			path(1)
		}
		if errno == 0 && a[2] != 0 {
			var b []byte
			if b, errno = readMem(tid, a[2], 32); errno == 0 {
				var ts [2]unix.Timespec
				for i := range ts {
					ts[i] = unix.Timespec{Sec: int64(binary.NativeEndian.Uint64(b[16*i:])), Nsec: int64(binary.NativeEndian.Uint64(b[16*i+8:]))}
				}
				r.times = &ts
			}
		}
	default:
		return nil, unix.EPERM
	}
	if errno != 0 {
		return nil, errno
	}
	return r, 0
}

// readMem reads n bytes at addr of the caller's memory.
func readMem(tid int, addr uint64, n int) ([]byte, unix.Errno) {
	if n == 0 {
		return nil, 0
	}
	if addr == 0 {
		return nil, unix.EFAULT
	}
	b := make([]byte, n)
	got, err := unix.ProcessVMReadv(tid, []unix.Iovec{{Base: &b[0], Len: uint64(n)}},
		[]unix.RemoteIovec{{Base: uintptr(addr), Len: n}}, 0)
	if err != nil || got != n {
		return nil, unix.EFAULT
	}
	return b, 0
}

// readString reads a NUL-terminated string of at most max bytes (its
// NUL not counted) at addr, a page at most at a time (the string may end
// just before an unmapped page); long is the errno of a longer one.
func readString(tid int, addr uint64, max int, long unix.Errno) (string, unix.Errno) {
	if addr == 0 {
		return "", unix.EFAULT
	}
	page := uint64(os.Getpagesize())
	var out []byte
	for len(out) <= max {
		n := int(page - addr%page)
		if n > max+1-len(out) {
			n = max + 1 - len(out)
		}
		b, errno := readMem(tid, addr, n)
		if errno != 0 {
			return "", errno
		}
		if i := slices.Index(b, 0); i >= 0 {
			return string(append(out, b[:i]...)), 0
		}
		out = append(out, b...)
		addr += uint64(n)
	}
	return "", long
}

// readPath reads a path argument as the kernel would (getname).
func readPath(tid int, addr uint64) (string, unix.Errno) {
	return readString(tid, addr, pathMax-1, unix.ENAMETOOLONG)
}

// readXattrName reads an xattr's name as the kernel would (ERANGE when
// empty or longer than XATTR_NAME_MAX).
func readXattrName(tid int, addr uint64) (string, unix.Errno) {
	s, errno := readString(tid, addr, xattrNameMax, unix.ERANGE)
	if errno == 0 && s == "" {
		return "", unix.ERANGE
	}
	return s, errno
}

// readValue reads an xattr's value of size bytes.
func readValue(tid int, addr, size uint64) ([]byte, unix.Errno) {
	if size > xattrSizeMax {
		return nil, unix.E2BIG
	}
	b, errno := readMem(tid, addr, int(size))
	if errno == 0 && b == nil {
		b = []byte{}
	}
	return b, errno
}

// callerPath gives the names by which a path reaches the caller's own
// /proc entry (/proc/self, /proc/thread-self, /dev/fd, /dev/std*), which
// this process would read as its own, the caller's numbers, as the kernel
// reads them: /proc/self is the caller's thread group (its leader's
// descriptors and working directory, though the calling thread has its
// own: unshare(CLONE_FILES or CLONE_FS)), /proc/thread-self the thread.
func callerPath(tid int, p string) string {
	for _, pre := range []struct {
		from, to string
		thread   bool
	}{
		{"/proc/self", "", false}, {"/proc/thread-self", "", true}, {"/dev/fd", "/fd", false},
		{"/dev/stdin", "/fd/0", false}, {"/dev/stdout", "/fd/1", false}, {"/dev/stderr", "/fd/2", false},
	} {
		if p == pre.from || strings.HasPrefix(p, pre.from+"/") {
			group := threadGroup(tid)
			own := "/proc/" + strconv.Itoa(group)
			if pre.thread {
				own += "/task/" + strconv.Itoa(tid)
			}
			return own + pre.to + p[len(pre.from):]
		}
	}
	return p
}

// threadGroup is the thread group (process) of thread tid, from its
// /proc status; tid itself when that cannot be read.
func threadGroup(tid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return tid
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Tgid:"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return tid
}

// resolveAs opens (O_PATH) the object the call names, as the caller
// would find it.
func resolveAs(tid int, r *metaReq) (int, unix.Errno) {
	if !r.hasPath {
		return callerFD(tid, r.dirfd, true)
	}
	if r.path == "" {
		if !r.emptyOK {
			return -1, unix.ENOENT
		}
		if r.dirfd == unix.AT_FDCWD {
			return openErrno(unix.Open("/proc/"+strconv.Itoa(tid)+"/cwd", unix.O_PATH|unix.O_CLOEXEC, 0))
		}
		return callerFD(tid, r.dirfd, false)
	}
	p := callerPath(tid, r.path)
	dir := unix.AT_FDCWD
	if !strings.HasPrefix(p, "/") {
		var errno unix.Errno
		if r.dirfd == unix.AT_FDCWD {
			dir, errno = openErrno(unix.Open("/proc/"+strconv.Itoa(tid)+"/cwd", unix.O_PATH|unix.O_CLOEXEC, 0))
		} else {
			dir, errno = callerFD(tid, r.dirfd, false)
		}
		if errno != 0 {
			return -1, errno
		}
		defer unix.Close(dir)
	}
	flags := unix.O_PATH | unix.O_CLOEXEC
	if !r.follow {
		flags |= unix.O_NOFOLLOW
	}
	return openErrno(unix.Openat(dir, p, flags, 0))
}

func openErrno(fd int, err error) (int, unix.Errno) {
	if err != nil {
		if e, ok := err.(unix.Errno); ok {
			return -1, e
		}
		return -1, unix.EPERM
	}
	return fd, 0
}

// callerFD opens (O_PATH) the object of the caller's descriptor n;
// opened says it must be open for real (fchmod, fchown, fsetxattr,
// futimens refuse an O_PATH descriptor with EBADF).
func callerFD(tid int, n int32, opened bool) (int, unix.Errno) {
	if n < 0 {
		return -1, unix.EBADF
	}
	base := "/proc/" + strconv.Itoa(tid)
	info, err := os.ReadFile(fmt.Sprintf("%s/fdinfo/%d", base, n))
	if err != nil {
		return -1, unix.EBADF
	}
	if opened {
		for _, line := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(line, "flags:"); ok {
				if f, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64); err == nil && f&unix.O_PATH != 0 {
					return -1, unix.EBADF
				}
			}
		}
	}
	fd, errno := openErrno(unix.Open(fmt.Sprintf("%s/fd/%d", base, n), unix.O_PATH|unix.O_CLOEXEC, 0))
	if errno == unix.ENOENT {
		errno = unix.EBADF
	}
	return fd, errno
}

// mayChange tells whether the step may change the metadata of the object
// open on fd: its real path is inside what the plan lets the step write,
// and names that object (no link on the way); never a device. An object
// with no name (a pipe, a socket, an unlinked file) may be changed.
func (s *metaServer) mayChange(fd int, st *unix.Stat_t) bool {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFCHR, unix.S_IFBLK:
		return false
	}
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return false
	}
	if !strings.HasPrefix(real, "/") {
		return true // a pipe, a socket, an anonymous inode: no name to keep
	}
	if st.Nlink == 0 {
		// An unlinked file, or one made with O_TMPFILE that its process
		// may link in later, anywhere on its file system: judged by the
		// folder it was in. One of another process's in a folder outside
		// (reached through /proc/PID/fd) is not changed (the twenty-second
		// red team's row); a memfd is in no folder of the step's.
		return s.writable(filepath.Dir(strings.TrimSuffix(real, " (deleted)")))
	}
	if !s.writable(real) {
		return false
	}
	again, err := unix.Openat2(unix.AT_FDCWD, real, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		return false
	}
	defer unix.Close(again)
	var st2 unix.Stat_t
	return unix.Fstat(again, &st2) == nil && st2.Dev == st.Dev && st2.Ino == st.Ino
}

// writable tells whether the plan lets the step write real: a write
// rule's object, or below a write rule's directory, where those objects
// are now (a rule follows its object when it is renamed, as Landlock's
// does).
func (s *metaServer) writable(real string) bool {
	if s.refuseAll {
		return false
	}
	return planWritable(ruleObjects(s.rules), real)
}

// ruleObjects are the write rules open on fds, at their real paths now;
// one removed since is left out.
func ruleObjects(fds []int) []writeRule {
	out := make([]writeRule, 0, len(fds))
	for _, fd := range fds {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil || st.Nlink == 0 {
			continue
		}
		p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil || !strings.HasPrefix(p, "/") {
			continue
		}
		out = append(out, writeRule{path: p, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return out
}

// planWritable is writable's rule, on the rules given.
func planWritable(writes []writeRule, real string) bool {
	for _, w := range writes {
		if real == w.path || w.dir && (w.path == "/" || strings.HasPrefix(real, w.path+"/")) {
			return true
		}
	}
	return false
}

// perform does the call on the object open (O_PATH) on fd: 0 or its
// errno.
func perform(fd int, st *unix.Stat_t, r *metaReq) unix.Errno {
	proc := "/proc/self/fd/" + strconv.Itoa(fd)
	link := st.Mode&unix.S_IFMT == unix.S_IFLNK
	var err error
	switch r.op {
	case opChmod:
		if link {
			return unix.EOPNOTSUPP // a link's mode cannot change
		}
		err = unix.Fchmodat(unix.AT_FDCWD, proc, r.mode, 0)
	case opChown:
		err = unix.Fchownat(fd, "", r.uid, r.gid, unix.AT_EMPTY_PATH)
	case opTimes:
		empty := []byte{0}
		var tp unsafe.Pointer
		if r.times != nil {
			tp = unsafe.Pointer(&r.times[0])
		}
		_, _, e := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])), uintptr(tp), unix.AT_EMPTY_PATH, 0, 0)
		runtime.KeepAlive(r.times)
		runtime.KeepAlive(empty)
		if e != 0 {
			err = e
		}
	case opSetxattr:
		if link {
			return unix.EPERM // no user xattr on a link; the others need a capability
		}
		err = unix.Setxattr(proc, r.name, r.value, r.xflags)
	case opRemovexattr:
		if link {
			return unix.EPERM
		}
		err = unix.Removexattr(proc, r.name)
	default:
		return unix.EPERM
	}
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EPERM
}
