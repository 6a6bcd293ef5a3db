//go:build !windows

package main

import (
	"os"
	"syscall"
)

// lockSessionFile waits for the exclusive lock of a --session file's
// .lock; closing the file releases it.
func lockSessionFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
