package discovery

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// peerOf reads SO_PEERCRED: the process (its thread group's id, as
// Listen's os.Getpid) and effective user that called listen on the socket
// the connection reached, as the kernel recorded them then. A pid from
// another pid namespace, which this one cannot name, reads 0 and is no
// entry's.
func peerOf(conn net.Conn) (peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peer{}, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return peer{}, err
	}
	if credErr != nil {
		return peer{}, credErr
	}
	return peer{pid: int(cred.Pid), uid: int(cred.Uid), knownPID: true, knownUID: true}, nil
}
