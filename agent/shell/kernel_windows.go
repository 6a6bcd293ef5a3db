package shell

import "golang.org/x/sys/windows"

// killGroupNow ends a kernel's process tree at once (its Job object, or
// the process when no job could be made).
func killGroupNow(g procGroup) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.job != 0:
		_ = windows.TerminateJobObject(g.job, 1)
	case g.proc != 0:
		_ = windows.TerminateProcess(g.proc, 1)
	}
	g.close()
}
