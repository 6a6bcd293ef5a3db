//go:build !unix && !windows

package gate

import "os"

// dirStampOf is the directory at path's stamp (CommandList) where the
// system says no change time: its modification time; the zero stamp
// when it is no directory.
func dirStampOf(path string) dirStamp {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return dirStamp{}
	}
	return dirStamp{changed: fi.ModTime().UnixNano()}
}
