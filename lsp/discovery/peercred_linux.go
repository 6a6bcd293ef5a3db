package discovery

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerOf reads SO_PEERCRED: the process (its thread group's id, as
// Listen's os.Getpid) and effective user that called listen on the socket
// the connection reached, as the kernel recorded them then. A pid from
// another pid namespace, which this one cannot name, reads 0 and is no
// entry's.
func peerOf(conn net.Conn) (peer, error) {
	return peerAt(conn, func(fd int) (peer, error) {
		cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			return peer{}, err
		}
		return peer{pid: int(cred.Pid), uid: int(cred.Uid), knownPID: true, knownUID: true}, nil
	})
}
