package shell

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeSyscalls prints one line a call: its name and the errno it gave
// ("ok" when it worked).
func probeSyscalls() {
	say := func(name string, errno syscall.Errno) {
		if errno == 0 {
			fmt.Printf("%s: ok\n", name)
		} else {
			fmt.Printf("%s: %s\n", name, unix.ErrnoName(errno))
		}
	}
	fd, _, errno := syscall.RawSyscall(unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM, 0)
	say("socket(AF_UNIX)", errno)
	if errno == 0 {
		unix.Close(int(fd))
	}
	fd, _, errno = syscall.RawSyscall(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM, 0)
	say("socket(AF_INET)", errno)
	if errno == 0 {
		unix.Close(int(fd))
	}
	var pair [2]int32
	_, _, errno = syscall.RawSyscall6(unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM, 0, uintptr(unsafe.Pointer(&pair)), 0, 0)
	say("socketpair(AF_UNIX)", errno)
	var params [120]byte // struct io_uring_params, zeroed
	fd, _, errno = syscall.RawSyscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
	say("io_uring_setup", errno)
	if errno == 0 {
		unix.Close(int(fd))
	}
	if x32, ok := x32Socket(); ok {
		_, _, errno = syscall.RawSyscall(x32, unix.AF_UNIX, unix.SOCK_STREAM, 0)
		say("x32 socket(AF_UNIX)", errno)
	}
}
