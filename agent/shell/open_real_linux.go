package shell

import (
	"errors"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// openReal opens the real path the open handler judged, refusing any
// symbolic link on the way (red team): between the judgement and the
// open, a stage of the same pipeline can swap a directory of the path for
// one holding a link out of the workspace (mv Q P, where Q/x links to the
// home), and a plain open would follow it to ~/.bashrc. The real path has
// no link (G1.1), so openat2 with RESOLVE_NO_SYMLINKS opens exactly what
// was judged, or fails with ELOOP. Paths under /proc and /dev keep the
// links Resolve does not follow, and a kernel without openat2 opens by
// path.
func openReal(target string, flag int, perm os.FileMode) (*os.File, error) {
	if strings.HasPrefix(target, "/proc/") || strings.HasPrefix(target, "/dev/") {
		return os.OpenFile(target, flag, perm)
	}
	how := unix.OpenHow{Flags: uint64(flag) | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	if flag&os.O_CREATE != 0 {
		how.Mode = uint64(perm.Perm())
	}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, target, &how)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), target), nil
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) && !isFileEPERM(target):
			return os.OpenFile(target, flag, perm)
		case errors.Is(err, unix.ELOOP):
			return nil, &os.PathError{Op: "open", Path: target,
				Err: errors.New("a directory on the path became a symbolic link after it was judged; nothing was opened")}
		default:
			return nil, &os.PathError{Op: "open", Path: target, Err: err}
		}
	}
}

// isFileEPERM tells an EPERM of the file itself (it exists: the kernel
// refused it) from one a seccomp filter gives for an unknown syscall.
func isFileEPERM(target string) bool {
	_, err := os.Lstat(target)
	return err == nil
}
