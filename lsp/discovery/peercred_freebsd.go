package discovery

import (
	"errors"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// peerOf reads LOCAL_PEERCRED: the effective user that called listen on
// the socket the connection reached and, from FreeBSD 13 on, its process
// (struct xucred's cr_pid, in the union x/sys leaves unnamed at its end).
// An older FreeBSD leaves cr_pid 0: then the user alone is checked.
func peerOf(conn net.Conn) (peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peer{}, err
	}
	var x *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		x, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return peer{}, err
	}
	if credErr != nil {
		return peer{}, credErr
	}
	// union { void *_cr_unused1; pid_t cr_pid; }: the struct's last word
	pid := int(*(*int32)(unsafe.Add(unsafe.Pointer(x), unsafe.Sizeof(*x)-unsafe.Sizeof(uintptr(0)))))
	return peer{pid: pid, uid: int(x.Uid), knownPID: pid != 0, knownUID: true}, nil
}
