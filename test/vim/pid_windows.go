package vim

import "os"

// pidGone tells whether a process has ended: Windows opens no handle to a
// process that is gone. (The Vim test runs on Linux; this keeps the
// package building for the cross vet.)
func pidGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}
