//go:build !windows

package main

import (
	"io"
	"os"
	"syscall"
)

// pollableStdin is standard input read through the runtime's poller when
// it is a pipe or a socket (as an MCP client starts us): a read then needs
// no thread of its own, and closing the session ends a read in progress.
// A terminal or a file is left as it is.
func pollableStdin() io.Reader {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin
	}
	if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFIFO && kind != syscall.S_IFSOCK {
		return os.Stdin
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}
