//go:build darwin || freebsd

package discovery

import "os"

// maxSocketPath is the longest path a Unix socket can have on macOS and
// FreeBSD (sun_path is 104 bytes, with its terminating NUL).
const maxSocketPath = 103

// shortDir gives way to /tmp/eukhe-<uid> when a socket in dir could not
// fit in sun_path (a long XDG_RUNTIME_DIR or TMPDIR). The short directory
// is made 0700 and held to the user by Check, as any other.
func shortDir(dir string) string { return shorterDir(dir, "/tmp", os.Getuid(), maxSocketPath) }
