//go:build !windows

package transcript

import "os"

// openShared opens a transcript file (calls.log) for a reader or the
// writer: on Unix an open file can be renamed over at any time.
func openShared(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag, 0o600)
}

// renameOver renames from over to: rename(2), which replaces to in one
// step; a reader that opened to keeps reading the old file.
func renameOver(from, to string) error {
	return os.Rename(from, to)
}
