package discovery

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// peerOf reads LOCAL_PEERPID (the process at the other end: the one that
// last used the listening socket, the server) and LOCAL_PEERCRED (its
// effective user).
func peerOf(conn net.Conn) (peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peer{}, err
	}
	var p peer
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		var pid int
		if pid, credErr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID); credErr != nil {
			return
		}
		var x *unix.Xucred
		if x, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED); credErr != nil {
			return
		}
		p = peer{pid: pid, uid: int(x.Uid), knownPID: true, knownUID: true}
	}); err != nil {
		return peer{}, err
	}
	return p, credErr
}
