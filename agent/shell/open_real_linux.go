package shell

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/interp"

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
	f, err := openat2(target, &how)
	switch {
	case err == nil:
		return f, nil
	case errors.Is(err, unix.ENOSYS):
		return os.OpenFile(target, flag, perm)
	case errors.Is(err, unix.ELOOP):
		return nil, &os.PathError{Op: "open", Path: target,
			Err: errors.New("a directory on the path became a symbolic link after it was judged; nothing was opened")}
	default:
		return nil, &os.PathError{Op: "open", Path: target, Err: err}
	}
}

// openat2 opens target as how says, again after EINTR or EAGAIN; ENOSYS
// stands for a kernel (or a seccomp filter) without openat2.
func openat2(target string, how *unix.OpenHow) (*os.File, error) {
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, target, how)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), target), nil
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) && !isFileEPERM(target):
			return nil, unix.ENOSYS
		}
		return nil, err
	}
}

// isFileEPERM tells an EPERM of the file itself (it exists: the kernel
// refused it) from one a seccomp filter gives for an unknown syscall.
func isFileEPERM(target string) bool {
	_, err := os.Lstat(target)
	return err == nil
}

// statReal stats the real path the stat handler judged, with no link on
// the way followed (openat2 RESOLVE_NO_SYMLINKS, O_PATH: nothing is
// read): a link flipped after the judgement fails with ELOOP, never
// lands the stat elsewhere (the thirty-first red team's race). With
// follow false, rp is the entry itself, its last link not followed. The
// answer names name. Paths under /proc and /dev, a looped path, and a
// kernel without openat2 are stat'ed by path: the real path, its last
// link not followed (one there is a change since the judgement).
func statReal(rp gate.RealPath, name string, follow bool) (fs.FileInfo, error) {
	target := rp.Native()
	if rp.Looped || strings.HasPrefix(target, "/proc/") || strings.HasPrefix(target, "/dev/") {
		if follow {
			return os.Stat(name)
		}
		return os.Lstat(name)
	}
	f, err := openPath(target, follow)
	if errors.Is(err, unix.ENOSYS) {
		fi, err := os.Lstat(target)
		if err == nil && follow && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &os.PathError{Op: "stat", Path: name, Err: unix.ELOOP}
		}
		return fi, err
	}
	if err != nil {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	defer f.Close()
	return f.Stat()
}

// accessReal is access(2) of the real path judged, opened as statReal
// opens it: faccessat2 of the descriptor, or access of its /proc/self/fd
// name where the kernel has no faccessat2.
func accessReal(ctx context.Context, rp gate.RealPath, name string, mode interp.AccessMode) error {
	target := rp.Native()
	if rp.Looped || strings.HasPrefix(target, "/proc/") || strings.HasPrefix(target, "/dev/") {
		return interp.DefaultAccessHandler()(ctx, name, mode)
	}
	f, err := openPath(target, true)
	if errors.Is(err, unix.ENOSYS) {
		return interp.DefaultAccessHandler()(ctx, target, mode)
	}
	if err != nil {
		return &os.PathError{Op: "access", Path: name, Err: err}
	}
	defer f.Close()
	err = unix.Faccessat2(int(f.Fd()), "", uint32(mode), unix.AT_EMPTY_PATH)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EPERM) && !isFileEPERM(target) {
		err = unix.Access("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), uint32(mode))
	}
	if err != nil {
		return &os.PathError{Op: "access", Path: name, Err: err}
	}
	return nil
}

// openPath opens target with O_PATH and no link on the way; with follow
// false, a link at its end is opened itself (O_NOFOLLOW), else it fails
// with ELOOP. ENOSYS stands for a kernel (or a filter) without openat2.
func openPath(target string, follow bool) (*os.File, error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	if !follow {
		how.Flags |= unix.O_NOFOLLOW
	}
	return openat2(target, &how)
}
