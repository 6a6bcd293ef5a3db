package discovery

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerOf reads LOCAL_PEERPID (the process at the other end: the one that
// last used the listening socket, the server) and LOCAL_PEERCRED (its
// effective user).
func peerOf(conn net.Conn) (peer, error) {
	return peerAt(conn, func(fd int) (peer, error) {
		pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
		if err != nil {
			return peer{}, err
		}
		x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return peer{}, err
		}
		return peer{pid: pid, uid: int(x.Uid), knownPID: true, knownUID: true}, nil
	})
}
