package discovery

import (
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// peerOf reads LOCAL_PEERCRED: the effective user that called listen on
// the socket the connection reached and, from FreeBSD 13 on, its process
// (struct xucred's cr_pid, in the union x/sys leaves unnamed at its end).
// An older FreeBSD leaves cr_pid 0: then the user alone is checked.
func peerOf(conn net.Conn) (peer, error) {
	return peerAt(conn, func(fd int) (peer, error) {
		x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return peer{}, err
		}
		// union { void *_cr_unused1; pid_t cr_pid; }: the struct's last word
		pid := int(*(*int32)(unsafe.Add(unsafe.Pointer(x), unsafe.Sizeof(*x)-unsafe.Sizeof(uintptr(0)))))
		return peer{pid: pid, uid: int(x.Uid), knownPID: pid != 0, knownUID: true}, nil
	})
}
