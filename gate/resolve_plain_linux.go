package gate

import "golang.org/x/sys/unix"

// plainOS asks the kernel in one openat2 whether path exists and is
// reached through no symlink (RESOLVE_NO_SYMLINKS refuses a link at any
// part, the last one too, and magic links such as /proc's): the
// descriptor (O_PATH: no read permission needed, nothing opened for
// reading) is closed at once. Any error, ENOSYS of an old kernel too,
// is "cannot tell": Resolve walks the path.
func plainOS(path string) bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		// no O_NOFOLLOW: with O_PATH it would open a last part that is
		// a link, as itself, past RESOLVE_NO_SYMLINKS (openat2(2))
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}
