//go:build linux

package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY is a new pseudo-terminal: its controlling side and its terminal.
func openPTY(t *testing.T) (ptm, tty *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptm, tty
}

// eukhe mcp started by hand on a terminal says once what it waits for and
// what to do instead; started on a pipe, as a client starts it, it says
// nothing of the kind.
func TestMCPOnATerminalSaysWhatItWaitsFor(t *testing.T) {
	env := attachEnv(t)
	root := headlessRoot(t)
	ptm, tty := openPTY(t)
	cmd := exec.Command(binary, "mcp")
	var errb strings.Builder
	cmd.Dir, cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = root, env, tty, tty, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ptm.Write([]byte{4}) // Ctrl-D at the start of a line: the end of input
	if err := cmd.Wait(); err != nil {
		t.Fatalf("eukhe mcp on a terminal: %v\n%s", err, errb.String())
	}
	said := errb.String()
	if strings.Count(said, "waiting for an MCP client on standard input") != 1 ||
		!strings.Contains(said, "claude mcp add eukhe -- eukhe mcp") || !strings.Contains(said, "eukhe tool read") {
		t.Fatalf("on a terminal it said:\n%s", said)
	}

	piped := exec.Command(binary, "mcp")
	piped.Dir, piped.Env, piped.Stdin = root, env, strings.NewReader("")
	r := ranOf(t, piped)
	if r.code != 0 || strings.Contains(r.stderr, "waiting for an MCP client") {
		t.Fatalf("on a pipe: %d\n%s", r.code, r.stderr)
	}
}
