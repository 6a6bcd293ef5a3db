//go:build !linux && !darwin

package shell

import "errors"

// renameOutOfUse is not built here: FreeBSD and Windows have no rename
// that refuses to replace an entry through a directory opened without
// links. It runs only after a confined process (refuseMade), and these
// systems have no mechanism (detect_freebsd.go, detect_windows.go), so it
// is not reached; should it be, the entry stays and the reply says to
// remove it by hand.
func renameOutOfUse(path, id string) (string, error) {
	return "", errors.New("renaming out of use is not built for this system")
}

// giveOwnerSight is not built here: no directory is shut (shutDir).
func giveOwnerSight(string) bool { return false }
