//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/procfs"
)

// A one-shot eukhe tool exits before the login shell it asked for PATH is
// done with its startup files (here 4 s of them, past the 3 s wait): the
// shell is handed to a holder of its own (settings.HandOffAskedShells), so
// the startup file runs to its end rather than being hung up at eukhe's
// exit (pyenv rehash, hung up between making its lock and setting the
// trap that removes it, left the lock: every later shell of the user's
// waited a minute).
func TestAOneShotToolLetsTheShellItAskedFinish(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is needed")
	}
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	for _, d := range []string{home, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(home, "rc.log")
	rc := "echo start >> " + log + "\nsleep 4\necho done >> " + log + "\n"
	for _, f := range []string{".bashrc", ".bash_profile"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "tool", "read", "--root", root, `{"path":"a.txt"}`)
	cmd.Dir = root
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash", "XDG_STATE_HOME=" + filepath.Join(base, "state"), "XDG_CONFIG_HOME=" + filepath.Join(base, "config")}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "one") {
		t.Fatalf("eukhe tool read: %v\n%s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(log)
		if strings.Count(string(b), "done") >= strings.Count(string(b), "start") && strings.Contains(string(b), "done") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	t.Fatalf("the startup file asked for PATH was cut short when eukhe tool exited: its log %q", b)
}

// The holder's entry point run by hand (a step could: eukhe is on PATH)
// with another process's pid and no terminal of that session signals
// nothing: the process lives.
func TestTheShellHolderSignalsNoProcessWhoseTerminalItDoesNotHold(t *testing.T) {
	t.Parallel()
	victim := exec.Command("sleep", "30")
	victim.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	pid := strconv.Itoa(victim.Process.Pid)
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := exec.Command(binary, "__hold-shells", pid, "0")
	h.ExtraFiles = []*os.File{f}
	if out, err := h.CombinedOutput(); err != nil {
		t.Fatalf("the holder: %v\n%s", err, out)
	}
	time.Sleep(200 * time.Millisecond)
	if !procfs.Alive(victim.Process.Pid) { // killed, it is this test's zombie
		t.Fatalf("the holder ended process %s, whose terminal it did not hold", pid)
	}
}
