package discovery

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// The MAC binds an entry's socket path, not the process listening there:
// a process of the user's that removes a live server's socket and listens
// at its path would answer in the server's name (the thirty-second red
// team's replaced socket). So Dial asks the kernel who answers — the
// process that made the listening socket, and its user — and refuses a
// peer that is not the process the entry names (Listen writes its own
// pid: the listener is always the entry's process) or not this user.
// Where the kernel cannot say (peercred_other.go), the check is not made.

// peer is what the kernel says of the process at a socket's other end:
// each field only when knownPID or knownUID says the kernel told it.
type peer struct {
	pid, uid           int
	knownPID, knownUID bool
}

// NotTheServer is Dial's error when the process answering at an entry's
// socket is not the entry's.
type NotTheServer struct {
	Entry Entry
	PID   int // the process answering (0: not known)
	UID   int // its user (-1: not known)
}

func (e *NotTheServer) Error() string {
	who := fmt.Sprintf("process %d of user %d", e.PID, e.UID)
	switch {
	case e.PID == 0 && e.UID < 0:
		who = "a process the system does not name"
	case e.UID < 0:
		who = fmt.Sprintf("process %d", e.PID)
	case e.PID == 0:
		who = fmt.Sprintf("a process of user %d", e.UID)
	}
	return fmt.Sprintf("the socket %s answers as %s, not as the eukhe server (process %d, yours) its signed entry names: another program took the socket's path; "+
		"it is not used. Restart the editor's eukhe server (reopen the editor) to publish it again, and find what listens there (ss -xlp or lsof -U)",
		e.Entry.Socket, who, e.Entry.PID)
}

// Dial connects to e's socket and checks that the entry's process
// answers: every dial of a discovery entry goes through it. The error is
// a *NotTheServer when another process (or another user's) listens there.
func Dial(e Entry) (net.Conn, error) {
	conn, err := net.DialTimeout("unix", e.Socket, 5*time.Second)
	if err != nil {
		return nil, err
	}
	p, err := peerOf(conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("the socket %s: who answers cannot be read (%v); it is not used", e.Socket, err)
	}
	if err := checkPeer(e, p); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// checkPeer refuses a peer the kernel names that is not e's process or
// not this user: a pid or user the kernel did not tell is not judged.
func checkPeer(e Entry, p peer) error {
	if (!p.knownPID || p.pid == e.PID) && (!p.knownUID || p.uid == os.Geteuid()) {
		return nil
	}
	bad := &NotTheServer{Entry: e, UID: -1}
	if p.knownPID {
		bad.PID = p.pid
	}
	if p.knownUID {
		bad.UID = p.uid
	}
	return bad
}

// isNotTheServer tells whether err is Dial's refusal of the process
// answering.
func isNotTheServer(err error) bool {
	var n *NotTheServer
	return errors.As(err, &n)
}

// peerAt runs read on the descriptor of conn, a Unix socket's
// connection: the kernel's answer about the process at its other end.
func peerAt(conn net.Conn, read func(fd int) (peer, error)) (peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peer{}, err
	}
	var p peer
	var readErr error
	if err := raw.Control(func(fd uintptr) { p, readErr = read(int(fd)) }); err != nil {
		return peer{}, err
	}
	return p, readErr
}
