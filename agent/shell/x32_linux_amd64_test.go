package shell

import "golang.org/x/sys/unix"

// x32Socket is socket's number in the x32 ABI.
func x32Socket() (uintptr, bool) { return x32Bit | unix.SYS_SOCKET, true }
