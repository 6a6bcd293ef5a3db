//go:build unix

package shell

import (
	"os/exec"
	"syscall"
	"testing"
)

// A process group with nothing left in it is forgotten when its leader is
// waited for: its id is free then, and a stop or a timeout later must not
// signal a group of another program that got that id. A group that still
// holds a process (a daemon the step left) is kept for the stop.
func TestAnEmptyProcessGroupIsForgotten(t *testing.T) {
	left := exec.Command("sleep", "30")
	left.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { left.Process.Kill(); left.Wait() })
	ended := exec.Command("true")
	ended.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	x := &run{groups: map[procGroup]bool{left.Process.Pid: true, ended.Process.Pid: true}}
	x.waited(ended.Process.Pid)
	if x.groups[ended.Process.Pid] {
		t.Errorf("the empty group %d is still kept", ended.Process.Pid)
	}
	if !x.groups[left.Process.Pid] {
		t.Errorf("the group %d, which still holds a process, was forgotten", left.Process.Pid)
	}
}
