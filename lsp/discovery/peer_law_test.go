//go:build linux || darwin || freebsd

package discovery

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// A server is the process its entry names: Dial connects only when the
// process answering at the entry's socket (the kernel's word: the one
// that made the listening socket) is the entry's pid and this user's;
// any other pid, or any other user, is refused as no server — whatever
// the entry's signature says.
func TestLaw_a_server_is_the_process_its_entry_names(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", sock) // this test's process answers
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	me, uid := os.Getpid(), os.Geteuid()
	rapid.Check(t, func(rt *rapid.T) {
		pid := rapid.OneOf(rapid.Just(me), rapid.IntRange(0, 1<<22)).Draw(rt, "entry pid")
		conn, err := Dial(Entry{PID: pid, Socket: sock})
		if err == nil {
			conn.Close()
		}
		if (err == nil) != (pid == me) {
			rt.Fatalf("the entry names pid %d, pid %d answers: Dial gave %v", pid, me, err)
		}
		if err != nil && !isNotTheServer(err) {
			rt.Fatalf("refused, but not as another process: %v", err)
		}
		// the judgment itself, for the credentials no test can make
		// (another user's process)
		p := peer{
			pid:      rapid.OneOf(rapid.Just(pid), rapid.IntRange(0, 1<<22)).Draw(rt, "peer pid"),
			uid:      rapid.OneOf(rapid.Just(uid), rapid.IntRange(0, 1<<20)).Draw(rt, "peer uid"),
			knownPID: true, knownUID: true,
		}
		if ok := checkPeer(Entry{PID: pid}, p) == nil; ok != (p.pid == pid && p.uid == uid) {
			rt.Fatalf("entry pid %d, peer %+v (this user %d): accepted %v", pid, p, uid, ok)
		}
	})
}
