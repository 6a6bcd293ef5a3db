package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockSessionFile waits for the exclusive lock (LockFileEx on its first
// byte) of a --session file's .lock; closing the file releases it.
func lockSessionFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}
