package shell

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// state is process pid's state letter in /proc ('T' stopped), or 0 when
// it is gone.
func state(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// waitState waits (a hang guard only) until pid's state is want.
func waitState(t *testing.T, pid int, want byte) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for state(pid) != want {
		if time.Now().After(deadline) {
			t.Fatalf("process %d: state %q, want %q", pid, state(pid), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func startSleeper(t *testing.T, script string, setsid bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// A thaw continues the kernel's own processes only: a pid in the frozen
// list that is no longer the kernel's (it ended and the pid went to
// another process) stays as it is.
func TestAThawContinuesOnlyTheKernelsOwnProcesses(t *testing.T) {
	k := startSleeper(t, "sleep 30 & wait", true)
	other := startSleeper(t, "exec sleep 30", false)
	pid := k.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for len(kernelProcesses(pid)) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	frozen := freezeKernel(pid)
	if len(frozen) < 2 {
		t.Fatalf("froze %v, want the shell and its sleep", frozen)
	}
	for _, p := range frozen {
		waitState(t, p, 'T')
	}
	syscall.Kill(other.Process.Pid, syscall.SIGSTOP)
	waitState(t, other.Process.Pid, 'T')
	thawKernel(pid, append(frozen, other.Process.Pid))
	for _, p := range frozen {
		waitState(t, p, 'S')
	}
	time.Sleep(50 * time.Millisecond)
	if s := state(other.Process.Pid); s != 'T' {
		t.Fatalf("a process not the kernel's was continued (state %q)", s)
	}
}

// Once the kernel is reaped its pid may be anyone's: nothing is looked
// for or signalled by it any more.
func TestAReapedKernelIsNeverSignalled(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	k := &kernel{cmd: cmd}
	if err := k.reap(); err != nil {
		t.Fatal(err)
	}
	called := false
	k.unreaped(func(int) { called = true })
	if called {
		t.Fatal("a reaped kernel's pid was used")
	}
}

// An exited kernel is not reaped by waitExited: its pid stays its own
// (a zombie) until reap.
func TestWaitExitedLeavesTheKernelUnreaped(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitExited(cmd.Process.Pid)
	if s := state(cmd.Process.Pid); s != 'Z' {
		t.Fatalf("state %q after waitExited, want a zombie (Z)", s)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if s := state(cmd.Process.Pid); s != 0 {
		t.Fatalf("state %q after the reap, want gone", s)
	}
}
