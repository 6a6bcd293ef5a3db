package shell

import (
	"os"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procGroup is one external process's tree on Windows: a Job object the
// process is put in as soon as it started (its children are born in it),
// set to kill what it holds when its last handle closes, so no process
// of a step outlives eukhe. The process's own handle is kept for when no
// job could be made (a parent job that forbids nesting, before Windows 8):
// then only the process is killed. It keeps the law that a stopped script
// stops whole (run.go's stop, check.go's refuse).
//
// The process runs for a moment before it is assigned (exec.Cmd cannot
// start it suspended and resume it): a child it starts in that moment is
// not in the job.
type procGroup = *winGroup

type winGroup struct {
	mu   sync.Mutex
	job  windows.Handle // 0: none
	proc windows.Handle // 0: closed
}

// groupAttr starts the process in a new process group, so the console's
// Ctrl+C for the server does not reach it.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// startGroup puts a process just started in a new Job object.
func startGroup(p *os.Process) procGroup {
	g := &winGroup{}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(p.Pid))
	if err != nil {
		return g
	}
	g.proc = proc
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return g
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return g
	}
	if err := windows.AssignProcessToJobObject(job, proc); err != nil {
		windows.CloseHandle(job)
		return g
	}
	g.job = job
	return g
}

// jobobjectBasicAccountingInformation is
// JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, for its ActiveProcesses.
type jobobjectBasicAccountingInformation struct {
	TotalUserTime, TotalKernelTime, ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses, TotalTerminatedProcesses     uint32
}

// active tells whether a process of the job still runs.
func (g *winGroup) active() bool {
	var info jobobjectBasicAccountingInformation
	err := windows.QueryInformationJobObject(g.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err != nil || info.ActiveProcesses > 0
}

// close closes the group's handles; with the job's, what is left in it
// is killed.
func (g *winGroup) close() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
	if g.proc != 0 {
		windows.CloseHandle(g.proc)
		g.proc = 0
	}
}

// waited forgets a process's group once it was waited for, unless what
// it started still runs there: then the group stays for killGroups (and
// its handles for the session's life, as a Unix process group stays).
func (x *run) waited(g procGroup) {
	if g == nil {
		return
	}
	g.mu.Lock()
	done := g.job == 0 || !g.active()
	if done {
		g.close()
	}
	g.mu.Unlock()
	if done {
		x.mu.Lock()
		delete(x.groups, g)
		x.mu.Unlock()
	}
}

// killGroups ends every process tree the script started: Windows has no
// TERM a console program can be sent alone, so the job is terminated at
// once (TerminateJobObject), with exit status 1; without a job, the
// process.
func (x *run) killGroups() {
	x.mu.Lock()
	groups := make([]procGroup, 0, len(x.groups))
	for g := range x.groups {
		groups = append(groups, g)
	}
	clear(x.groups)
	x.mu.Unlock()
	for _, g := range groups {
		killGroupNow(g)
	}
}

// killGroupsNow is killGroups: a job is ended at once.
func (x *run) killGroupsNow() { x.killGroups() }

// killGroupNow ends one process tree at once (its Job object, or the
// process when no job could be made): a script's on kill, a kernel's.
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

// dupFile is a second handle of f, not inherited by a child.
func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var h windows.Handle
	var derr error
	if err := rc.Control(func(fd uintptr) {
		self := windows.CurrentProcess()
		derr = windows.DuplicateHandle(self, windows.Handle(fd), self, &h, 0, false, windows.DUPLICATE_SAME_ACCESS)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return os.NewFile(uintptr(h), f.Name()), nil
}
