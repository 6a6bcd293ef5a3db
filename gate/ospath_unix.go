//go:build !windows

package gate

import "os"

// osPath is a path in the gate's form as the OS opens it: the same.
func osPath(p string) string { return p }

// readlinkOS is a link's target.
func readlinkOS(p string) (string, error) { return os.Readlink(p) }
