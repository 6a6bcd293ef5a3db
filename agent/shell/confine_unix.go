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
// numbers this filter does not know.

// seccompData offsets (struct seccomp_data): the call's number, the
// architecture, and the low half of its first argument (little-endian).
const (
	dataNr   = 0
	dataArch = 4
	dataArg0 = 16
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

// noUnixSocketsFilter is the filter, as classic BPF:
//
//	load the architecture; another one: ENOSYS
//	load the call's number
//	x32 (amd64 only): ENOSYS
//	io_uring_setup: EACCES
//	not socket: allow
//	load the first argument (the domain); AF_UNIX: EACCES; else allow
func noUnixSocketsFilter() ([]bpf.RawInstruction, error) {
	arch, ok := nativeArch()
	if !ok {
		return nil, fmt.Errorf("no Unix-socket filter for %s", runtime.GOARCH)
	}
	x := 0 // the x32 check's place
	if runtime.GOARCH == "amd64" {
		x = 1
	}
	var (
		iURing, iSocket, iDomain = 3 + x, 4 + x, 6 + x
		iAllow, iEACCES, iENOSYS = 7 + x, 8 + x, 9 + x
	)
	skip := func(from, to int) uint8 { return uint8(to - from - 1) }
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: dataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch, SkipFalse: skip(1, iENOSYS)},
		bpf.LoadAbsolute{Off: dataNr, Size: 4},
	}
	if x == 1 {
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32Bit, SkipTrue: skip(3, iENOSYS)})
	}
	prog = append(prog,
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_IO_URING_SETUP, SkipTrue: skip(iURing, iEACCES)},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_SOCKET, SkipFalse: skip(iSocket, iAllow)},
		bpf.LoadAbsolute{Off: dataArg0, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_UNIX, SkipTrue: skip(iDomain, iEACCES), SkipFalse: skip(iDomain, iAllow)},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	)
	if len(prog) != iENOSYS+1 {
		return nil, fmt.Errorf("the Unix-socket filter is %d instructions, want %d", len(prog), iENOSYS+1)
	}
	return bpf.Assemble(prog)
}

// refuseUnixSockets loads the filter on this thread (Landlock's
// no_new_privs is set already; it is set again, as seccomp requires it);
// the exec that follows keeps it.
func refuseUnixSockets() error {
	raw, err := noUnixSocketsFilter()
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	runtime.KeepAlive(filter)
	return nil
}
