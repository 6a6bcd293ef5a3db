package procfs

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
	"testing"
)

// This process is listed with its parent, group and session.
func TestAllListsThisProcess(t *testing.T) {
	sid, err := unix.Getsid(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range All() {
		if p.PID == os.Getpid() {
			if p.PPID != os.Getppid() || p.PGRP != syscall.Getpgrp() || p.Session != sid {
				t.Fatalf("%+v; want parent %d, group %d, session %d", p, os.Getppid(), syscall.Getpgrp(), sid)
			}
			return
		}
	}
	t.Fatal("this process is not listed")
}
