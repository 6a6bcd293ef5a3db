//go:build linux && !amd64

package shell

import "golang.org/x/sys/unix"

// metaSyscalls are the generic architectures' (arm64, riscv64) calls that
// change a file's mode, owner, times or extended attributes: they have no
// chmod, chown, lchown, utime, utimes or futimesat, only the *at forms.
// (Other architectures get no Landlock filter at all: nativeArch.)
var metaSyscalls = map[uint32]metaCall{
	unix.SYS_FCHMOD:        callFchmod,
	unix.SYS_FCHMODAT:      callFchmodat,
	unix.SYS_FCHMODAT2:     callFchmodat2,
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
	unix.SYS_UTIMENSAT:     callUtimensat,
}
