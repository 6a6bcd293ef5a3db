//go:build linux

package procfs

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (target 5, threadsState; HELD): a process whose main thread
// ended (pthread_exit) and whose one live thread is not running but
// sleeping (state S, in time.sleep) — neither T/t nor R — must count as
// alive, not as a zombie; stopped by SIGSTOP it must read stopped, and
// continued, running again. The process ends by itself within 8 s.
// HELD: every state but Z/X counts as a live thread; T counts as stopped.
func TestRedteam29_ZombieLeaderWithASleepingOrStoppedThread(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testkit.Missing(t, "python3 is not on PATH")
	}
	cmd := exec.Command(py, "-c", `
import ctypes, threading, time
end = time.time() + 8
def work():
    while time.time() < end:
        time.sleep(0.05)
threading.Thread(target=work).start()
ctypes.CDLL(None).pthread_exit(None)
`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	var p Proc
	deadline := time.Now().Add(3 * time.Second)
	for {
		var ok bool
		p, ok = Of(pid)
		if ok && leaderZ(pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the main thread never ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p.Zombie || !Alive(pid) {
		t.Fatalf("a process whose sleeping thread lives reads as ended: %+v", p)
	}
	must(t, syscall.Kill(pid, syscall.SIGSTOP))
	stopped := false
	for range 100 {
		if q, _ := Of(pid); q.Stopped && !q.Zombie {
			stopped = true
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !stopped {
		t.Fatal("a process whose every live thread is stopped does not read stopped")
	}
	must(t, syscall.Kill(pid, syscall.SIGCONT))
	for range 100 {
		if q, _ := Of(pid); !q.Stopped && !q.Zombie {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("continued, it still reads stopped or ended")
}

// leaderZ tells whether the main thread's state is Z.
func leaderZ(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	return err == nil && i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
