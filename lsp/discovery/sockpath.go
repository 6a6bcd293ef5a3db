package discovery

import (
	"fmt"
	"path/filepath"
)

// longestSocketName is the longest name ListenEntry gives a socket:
// "<pid>-<8 hex>.sock" with a pid of up to ten digits, and its separator.
const longestSocketName = 1 + 10 + 1 + 8 + len(".sock")

// shorterDir is dir when every socket ListenEntry could make in it fits
// in max bytes, else tmp/eukhe-<uid>. It is pure: sockpath_bsd.go calls it
// with the system's limit, and it is tested on any system.
func shorterDir(dir, tmp string, uid, max int) string {
	if len(dir)+longestSocketName <= max {
		return dir
	}
	return filepath.Join(tmp, fmt.Sprintf("eukhe-%d", uid))
}
