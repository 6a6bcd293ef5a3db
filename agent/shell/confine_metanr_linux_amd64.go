//go:build linux && amd64

package shell

import "golang.org/x/sys/unix"

// metaSyscalls are x86-64's calls that change a file's mode, owner, times
// or extended attributes: the generic ones and the path-only ones older
// architectures keep (chmod, chown, lchown, utime, utimes, futimesat).
var metaSyscalls = map[uint32]metaCall{
	unix.SYS_CHMOD:         callChmod,
	unix.SYS_FCHMOD:        callFchmod,
	unix.SYS_FCHMODAT:      callFchmodat,
	unix.SYS_FCHMODAT2:     callFchmodat2,
	unix.SYS_CHOWN:         callChown,
	unix.SYS_LCHOWN:        callLchown,
	unix.SYS_FCHOWN:        callFchown,
	unix.SYS_FCHOWNAT:      callFchownat,
	unix.SYS_SETXATTR:      callSetxattr,
	unix.SYS_LSETXATTR:     callLsetxattr,
	unix.SYS_FSETXATTR:     callFsetxattr,
	unix.SYS_SETXATTRAT:    callSetxattrat,
	unix.SYS_REMOVEXATTR:   callRemovexattr,
	unix.SYS_LREMOVEXATTR:  callLremovexattr,
	unix.SYS_FREMOVEXATTR:  callFremovexattr,
	unix.SYS_REMOVEXATTRAT: callRemovexattrat,
	unix.SYS_UTIME:         callUtime,
	unix.SYS_UTIMES:        callUtimes,
	unix.SYS_FUTIMESAT:     callFutimesat,
	unix.SYS_UTIMENSAT:     callUtimensat,
}
