//go:build !linux

package shell

import "os"

// openReal opens the real path the open handler judged (by path: only
// Linux has openat2 here).
func openReal(target string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(target, flag, perm)
}
