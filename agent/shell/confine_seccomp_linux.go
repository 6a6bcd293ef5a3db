package shell

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Landlock cannot hide a Unix socket: it decides what a path may be opened
// for, and connecting to a socket by its path is not opening it. A step
// under Landlock could connect to a socket in a directory the sandbox
// hides — eukhe's own sockets (an approvals terminal's role: it could
// answer the questions about the steps after it), the user's ssh-agent
// (signing with keys it may not read), the docker daemon — and find their
// names in /proc/self/net/unix. Bubblewrap hides those directories for
// real (secret: eukhe's and the agents' sockets; net: /run). So under
// Landlock, unless the step may reach both (secret and net allowed), a
// seccomp filter refuses to make a Unix socket at all: socket(AF_UNIX)
// fails with EACCES. A pair of connected sockets (socketpair) still
// works; so does everything else. io_uring, whose requests seccomp does
// not see (it can make sockets), is refused too, and so is every system
// call of another ABI (x32, or 32-bit programs on a 64-bit kernel), whose
// numbers this filter does not know. Every Landlock step gets the filter
// now, even one allowed both, since it also sends the calls that change a
// file's metadata to the supervisor (loadLandlockFilter): so io_uring
// (which can set xattrs) and other ABIs' calls are refused for every one.
//
// Landlock's network rules cover only TCP bind and connect. Without net,
// a UDP datagram (sendto with an address), a TCP fast-open sendto
// (MSG_FASTOPEN connects without connect(2), so Landlock's hook never
// runs), SCTP, MPTCP, ICMP and a listen that binds a port by itself would
// still leave or open the sandbox. seccomp sees a call's numbers, not the
// address a pointer points to, so it cannot tell a datagram to loopback
// from one to the world; and Landlock already refuses every TCP bind and
// connect without net, loopback included. So without net the filter
// refuses every socket that is not Unix or netlink (netlink stays: the C
// library asks it for the interfaces; it reaches only this kernel):
// socket(AF_INET), socket(AF_INET6), AF_PACKET, AF_VSOCK (the VM's host),
// … fail with EACCES. Nothing that worked under Landlock without net stops
// working, as no inet socket could connect anywhere before either.

// seccompData offsets (struct seccomp_data): the call's number, the
// architecture, and the low half of its first argument (little-endian).
const (
	dataNr   = 0
	dataArch = 4
	dataArg0 = 16
	dataArg1 = 24 // its low half (a request number of ioctl)
)

// nativeArch is the audit architecture of this build's system calls; ok
// is false where the filter is not known to be right (then no Landlock
// step runs without Unix sockets allowed: it fails closed).
func nativeArch() (arch uint32, ok bool) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, true
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, true
	case "riscv64":
		return unix.AUDIT_ARCH_RISCV64, true
	}
	return 0, false
}

// x32Bit marks the x32 ABI's system call numbers on x86-64.
const x32Bit = 0x40000000

// socketFilter is the filter, as classic BPF, for a process that may make
// Unix sockets (unixOK) and reach the network (netOK); both true needs
// none:
//
//	load the architecture; another one: ENOSYS
//	load the call's number
//	x32 (amd64 only): ENOSYS
//	io_uring_setup: EACCES
//	not socket: allow
//	load the first argument (the domain)
//	AF_UNIX: allow if unixOK, else EACCES
//	netOK: allow
//	AF_NETLINK: allow; else EACCES
func socketFilter(unixOK, netOK bool) ([]bpf.RawInstruction, error) {
	return confineFilter(unixOK, netOK, nil, 0)
}

// confineFilter is socketFilter with, before io_uring's test, one test
// per call of meta that returns metaRet (the Landlock step's metadata
// calls: SECCOMP_RET_USER_NOTIF, confine_notify_linux.go). With no meta
// it is socketFilter's, instruction for instruction.
func confineFilter(unixOK, netOK bool, meta []uint32, metaRet uint32) ([]bpf.RawInstruction, error) {
	arch, ok := nativeArch()
	if !ok {
		return nil, fmt.Errorf("no socket filter for %s", runtime.GOARCH)
	}
	const (
		allow = iota
		eacces
		enosys
		eperm
		metaR
	)
	rets := []uint32{unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES), unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS), unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)}
	if len(meta) > 0 {
		rets = append(rets, metaRet)
	}
	// Each test jumps to one of the returns at the end when it matches
	// (eq) or does not (ne); -1 falls through to the next test.
	type test struct {
		load   uint32 // an offset to load first; ^0: none
		val    uint32
		ge     bool // "greater or equal" instead of "equal"
		eq, ne int
		// skipNe, when not 0, is how many instructions a mismatch skips
		// (ne is then unused); loadOnly is a load with no test
		skipNe   uint8
		loadOnly bool
	}
	none := ^uint32(0)
	tests := []test{{load: dataArch, val: arch, eq: -1, ne: enosys}}
	if runtime.GOARCH == "amd64" {
		tests = append(tests, test{load: dataNr, val: x32Bit, ge: true, eq: enosys, ne: -1})
	} else {
		tests = append(tests, test{load: dataNr, val: none, eq: -1, ne: -1})
	}
	if len(meta) > 0 {
		// A call newer than this filter is refused as the kernel refuses
		// one it lacks (ENOSYS): it may change what the supervisor
		// judges, by a way no test here knows (file_setattr came so).
		// file_setattr sets what FS_IOC_FSSETXATTR sets, by path.
		tests = append(tests,
			test{load: none, val: lastKnownSyscall + 1, ge: true, eq: enosys, ne: -1},
			test{load: none, val: unix.SYS_FILE_SETATTR, eq: eperm, ne: -1})
	}
	for _, nr := range meta {
		tests = append(tests, test{load: none, val: nr, eq: metaR, ne: -1})
	}
	if len(meta) > 0 {
		// The inode flag and attribute ioctls change what chattr(1)
		// changes (append-only, immutable, no-dump, project ids,
		// fs-verity, an encryption policy) on any file its owner may
		// open, read-only too: Landlock's ioctl right covers devices
		// only. Refused (EPERM) in a Landlock step, inside its write set
		// too; bubblewrap's read-only binds refuse them outside.
		tests = append(tests, test{load: none, val: unix.SYS_IOCTL, eq: -1, skipNe: uint8(len(inodeIoctls) + 2)})
		for i, req := range inodeIoctls {
			t := test{load: none, val: req, eq: eperm, ne: -1}
			if i == 0 {
				t.load = dataArg1
			}
			tests = append(tests, t)
		}
		tests = append(tests, test{load: dataNr, loadOnly: true})
	}
	tests = append(tests,
		test{load: none, val: unix.SYS_IO_URING_SETUP, eq: eacces, ne: -1},
		test{load: none, val: unix.SYS_SOCKET, eq: -1, ne: allow},
		test{load: dataArg0, val: unix.AF_UNIX, eq: map[bool]int{true: allow, false: eacces}[unixOK], ne: -1},
	)
	if netOK {
		tests = append(tests, test{load: none, val: unix.AF_UNIX, eq: allow, ne: allow})
	} else {
		tests = append(tests, test{load: none, val: unix.AF_NETLINK, eq: allow, ne: eacces})
	}
	// Lay the tests out, then the returns.
	var prog []bpf.Instruction
	type jump struct{ at, eq, ne int }
	var jumps []jump
	for _, t := range tests {
		if t.load != none {
			prog = append(prog, bpf.LoadAbsolute{Off: t.load, Size: 4})
		}
		if t.loadOnly {
			continue
		}
		cond := bpf.JumpEqual
		if t.ge {
			cond = bpf.JumpGreaterOrEqual
		}
		if t.skipNe != 0 {
			prog = append(prog, bpf.JumpIf{Cond: cond, Val: t.val, SkipFalse: t.skipNe})
			continue
		}
		jumps = append(jumps, jump{len(prog), t.eq, t.ne})
		prog = append(prog, bpf.JumpIf{Cond: cond, Val: t.val})
	}
	first := len(prog)
	for _, r := range rets {
		prog = append(prog, bpf.RetConstant{Val: r})
	}
	skip := func(from, ret int) uint8 {
		if ret < 0 {
			return 0
		}
		return uint8(first + ret - from - 1)
	}
	for _, j := range jumps {
		in := prog[j.at].(bpf.JumpIf)
		in.SkipTrue, in.SkipFalse = skip(j.at, j.eq), skip(j.at, j.ne)
		prog[j.at] = in
	}
	return bpf.Assemble(prog)
}

// lastKnownSyscall is the highest system call number of the kernels this
// filter was written knowing (rseq_slice_yield, 471, the same number on
// every architecture it supports): a Landlock step's filter refuses every
// call above it with ENOSYS.
const lastKnownSyscall = 471

// inodeIoctls are the ioctl requests that change a file's inode flags or
// attributes as chattr does, lock the user's encrypted directories, or
// make or remove a btrfs subvolume; a Landlock step's filter refuses
// them. Their numbers are those the
// kernel's headers give (_IOW and _IOWR of each request's type, number
// and argument size: TestInodeIoctlsAreTheHeadersNumbers).
var inodeIoctls = []uint32{
	unix.FS_IOC_SETFLAGS,
	0x40046602, // FS_IOC32_SETFLAGS
	0x401c5820, // FS_IOC_FSSETXATTR
	unix.FS_IOC_ENABLE_VERITY,
	unix.FS_IOC_SET_ENCRYPTION_POLICY,
	0x40087602, // FS_IOC_SETVERSION
	0x40047602, // FS_IOC32_SETVERSION
	0x40086604, // EXT4_IOC_SETVERSION
	0x40046604, // EXT4_IOC32_SETVERSION
	unix.FS_IOC_REMOVE_ENCRYPTION_KEY,
	unix.FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS,
	// btrfs makes and removes subvolumes and snapshots by its own
	// ioctls, through none of the path hooks Landlock decides by: on a
	// directory open for reading, a step would make a tree (a snapshot of
	// one it filled) where it may not write, or remove one (the
	// twenty-sixth red team's)
	0x4008941a, // BTRFS_IOC_SUBVOL_SETFLAGS (a subvolume made read-only)
	0x50009401, // BTRFS_IOC_SNAP_CREATE
	0x5000940e, // BTRFS_IOC_SUBVOL_CREATE
	0x50009417, // BTRFS_IOC_SNAP_CREATE_V2
	0x50009418, // BTRFS_IOC_SUBVOL_CREATE_V2
	0x5000940f, // BTRFS_IOC_SNAP_DESTROY
	0x5000943f, // BTRFS_IOC_SNAP_DESTROY_V2
	0xc0c89425, // BTRFS_IOC_SET_RECEIVED_SUBVOL
	0x40047211, // FAT_IOCTL_SET_ATTRIBUTES (a chmod by another name)
}

// loadLandlockFilter loads the Landlock step's filter on this thread
// (Landlock's no_new_privs is set already; it is set again, as seccomp
// requires it); the exec that follows keeps it. The filter refuses the
// sockets the plan forbids (socketFilter) and sends the calls that change
// a file's mode, owner, times or extended attributes (metaSyscalls) to
// the supervisor, which judges them (confine_notify_linux.go): listener
// is the descriptor it reads them from. Where the kernel gives no
// listener (older than 5.0, or a filter above this one has one already:
// eukhe run inside a Landlock step), those calls fail with EPERM instead,
// and listener is -1: closed, never open.
func loadLandlockFilter(unixOK, netOK bool) (listener int, err error) {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("no_new_privs: %w", err)
	}
	meta := metaNumbers()
	raw, err := confineFilter(unixOK, netOK, meta, unix.SECCOMP_RET_USER_NOTIF)
	if err != nil {
		return -1, err
	}
	if fd, err := seccompLoad(raw, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER); err == nil {
		return fd, nil
	}
	raw, err = confineFilter(unixOK, netOK, meta, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	if err != nil {
		return -1, err
	}
	if _, err := seccompLoad(raw, 0); err != nil {
		return -1, fmt.Errorf("seccomp: %w", err)
	}
	return -1, nil
}

// seccompLoad loads raw on this thread with seccomp(2) and flags; with
// SECCOMP_FILTER_FLAG_NEW_LISTENER its result is the listener.
func seccompLoad(raw []bpf.RawInstruction, flags uintptr) (int, error) {
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	r, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

// filterBytes is a filter as the kernel's struct sock_filter array, in
// this machine's byte order: what bubblewrap's --seccomp reads.
func filterBytes(raw []bpf.RawInstruction) []byte {
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		f := unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
		out = append(out, unsafe.Slice((*byte)(unsafe.Pointer(&f)), unsafe.Sizeof(f))...)
	}
	return out
}
